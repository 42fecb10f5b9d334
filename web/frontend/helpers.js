// The config panel: checkboxes for Burn's features and a hardware and
// environment panel. It reads the Cargo.toml text on every change and
// writes its edits back into the text, which stays the source of truth.

import { burnDependency, playgroundSettings, setBurnDefaultFeatures, setBurnFeature, setEnv, setHardware } from "./cargo.js";

export class ConfigHelpers {
  constructor(fieldset, { read, write }) {
    this.fieldset = fieldset;
    this.read = read;
    this.write = write;
    if (!fieldset) return;
    fieldset.addEventListener("change", (e) => this.edit(e.target));
  }

  edit(input) {
    const text = this.read();
    let next = text;
    if (input.dataset.feature) next = setBurnFeature(text, input.dataset.feature, input.checked);
    else if ("defaultFeatures" in input.dataset) next = setBurnDefaultFeatures(text, input.checked);
    else if (input.dataset.hardware) {
      const key = input.dataset.hardware;
      if (input.type === "checkbox") next = setHardware(text, key, input.checked);
      else next = setHardware(text, key, input.value === "" ? undefined : Math.max(0, Math.trunc(Number(input.value))));
    } else if (input.dataset.wgpuAdapter) {
      const adapters = [...this.fieldset.querySelectorAll("[data-wgpu-adapter]")].filter((x) => x.checked).map((x) => x.dataset.wgpuAdapter);
      next = setHardware(text, "wgpu", adapters);
    } else if (input.dataset.env) next = setEnv(text, input.dataset.env, input.value);
    if (next !== text) this.write(next);
  }

  // sync shows what the text says; controls the text cannot express (an
  // unreadable burn entry) are disabled rather than guessed.
  sync() {
    if (!this.fieldset) return;
    const text = this.read();
    const dep = burnDependency(text);
    const { hardware, env } = playgroundSettings(text);
    for (const input of this.fieldset.querySelectorAll("[data-feature]")) {
      input.checked = dep.features.includes(input.dataset.feature);
      input.disabled = !dep.editable;
    }
    const defaults = this.fieldset.querySelector("[data-default-features]");
    defaults.checked = dep.defaultFeatures;
    defaults.disabled = !dep.editable;
    for (const input of this.fieldset.querySelectorAll("[data-hardware]")) {
      const v = hardware[input.dataset.hardware];
      if (input.type === "checkbox") input.checked = v === true;
      else if (document.activeElement !== input) input.value = typeof v === "number" ? String(v) : "";
    }
    const adapters = Array.isArray(hardware.wgpu) ? hardware.wgpu : [];
    for (const input of this.fieldset.querySelectorAll("[data-wgpu-adapter]")) input.checked = adapters.includes(input.dataset.wgpuAdapter);
    for (const select of this.fieldset.querySelectorAll("[data-env]")) select.value = typeof env[select.dataset.env] === "string" ? env[select.dataset.env] : "";
    this.fieldset.disabled = false;
  }
}
