// Taking a program to real Burn: the page's texts as a Cargo project (a
// zip to download), and the text of a report of a result that looks wrong
// (to paste into an issue). Both are made in the page from what it shows;
// nothing is sent anywhere.

import { strToU8, zipSync } from "fflate";

const PACKAGE = '[package]\nname = "burn-playground"\nversion = "0.1.0"\nedition = "2024"\n\n';

// packageName is the name in a Cargo.toml's [package] table, if any.
function packageName(config) {
  let inPackage = false;
  for (const line of config.split("\n")) {
    const header = /^\s*\[([^\]]*)\]/.exec(line);
    if (header) inPackage = header[1].trim() === "package";
    const name = inPackage && /^\s*name\s*=\s*"([^"]+)"/.exec(line);
    if (name) return name[1];
  }
  return null;
}

// cargoProject is the page's texts as the files of a project Cargo builds:
// a Cargo.toml with a [package] table (the playground's is added when the
// text has none, and [dependencies] burn when it is empty), src/main.rs
// (a snippet of bare statements, as doc tests are written, inside
// `fn main`, where Rust allows its items too), and a README that links
// back to the playground, with the crate's other files. Paths are under
// the package's folder.
export function cargoProject(config, snippet, link, files = {}) {
  let manifest = config.trim() === "" ? '[dependencies]\nburn = "0.22"\n' : config;
  if (packageName(manifest) === null && !/^\s*\[package\]/m.test(manifest)) manifest = PACKAGE + manifest;
  const name = packageName(manifest) ?? "burn-playground";
  let main = snippet.endsWith("\n") ? snippet : snippet + "\n";
  if (!/\bfn\s+main\s*\(/.test(main)) {
    main = "fn main() {\n" + main.replace(/^(?=.)/gm, "    ") + "}\n";
  }
  const readme =
    `# ${name}\n\n` +
    "A Burn program from the Dispatch Playground, which showed what Burn's dispatch does with it\n" +
    `without compiling it. Open it there again: ${link}\n\n` +
    "Build and run it with Cargo:\n\n```sh\ncargo run\n```\n\n" +
    "The playground's own settings, if any, are under `[package.metadata.playground]` in Cargo.toml;\n" +
    "Cargo ignores them.\n";
  return { folder: name, files: { "Cargo.toml": manifest, "src/main.rs": main, ...files, "README.md": readme } };
}

// projectZip is cargoProject as the bytes of a zip file.
export function projectZip(config, snippet, link, crateFiles) {
  const { folder, files } = cargoProject(config, snippet, link, crateFiles);
  const entries = {};
  for (const [path, text] of Object.entries(files)) entries[`${folder}/${path}`] = strToU8(text);
  return { name: `${folder}.zip`, bytes: zipSync(entries, { level: 6, mtime: new Date(Date.UTC(2026, 0, 1)) }) };
}

// reportText is the text of an issue about a result that looks wrong: the
// program, what the playground showed, the Result (without the catalog
// records its diagnostics carry, which the engine version and Burn commit
// identify, and without its hints, which the trace and the program give),
// and where to open it again.
export function reportText({ config, snippet, files, result, link, mode }) {
  const shown = result
    ? `${result.status}${result.complete === false ? " (not complete)" : ""}` +
      (result.panic ? `: ${result.panic.message}` : "") +
      (result.diagnostics ?? [])
        .filter((d) => d.severity === "error")
        .slice(0, 5)
        .map((d) => `\n- ${d.phase} ${d.code}: ${d.message}`)
        .join("")
    : "no result";
  const slim = result && (({ hints, ...rest }) => ({ ...rest, diagnostics: (rest.diagnostics ?? []).map(({ record, ...d }) => d) }))(result);
  const engine = result?.engine ? `engine ${result.engine.version}, Burn ${result.engine.burn}` : "engine unknown";
  return [
    "## What the playground showed",
    "",
    `Mode: ${mode === "validation" ? "Validation" : "Burn would panic"}. Result: ${shown}`,
    "",
    "## What I expected",
    "",
    "(What Burn does with this program, and how you know: the output of `cargo run`, Burn's source.)",
    "",
    "## The program",
    "",
    "Cargo.toml:",
    "",
    "```toml",
    config.replace(/\n$/, ""),
    "```",
    "",
    files ? "src/main.rs:" : "main.rs:",
    "",
    "```rust",
    snippet.replace(/\n$/, ""),
    "```",
    "",
    ...Object.entries(files ?? {}).flatMap(([path, text]) => [`${path}:`, "", "```rust", text.replace(/\n$/, ""), "```", ""]),
    `Open it in the playground: ${link}`,
    "",
    "## The Result",
    "",
    `${engine}.`,
    "",
    "<details><summary>Result JSON</summary>",
    "",
    "```json",
    JSON.stringify(slim, null, 2),
    "```",
    "",
    "</details>",
    "",
  ].join("\n");
}
