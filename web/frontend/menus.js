// The toolbar's menus ("Examples", "Features & hardware") are <details>
// elements, which open and close on their summary only. setupMenus makes
// them behave as menus do: a click or focus outside an open one closes
// it, Escape closes it and gives the focus back to its summary, and
// opening one closes the others, so that two never lie over each other.
export function setupMenus(root, doc = document) {
  const menus = [...root.querySelectorAll("details.menu")];
  if (menus.length === 0) return;
  for (const menu of menus) {
    menu.addEventListener("toggle", () => {
      if (!menu.open) return;
      for (const other of menus) if (other !== menu) other.open = false;
    });
  }
  const closeOutside = (target) => {
    for (const menu of menus) if (menu.open && !menu.contains(target)) menu.open = false;
  };
  doc.addEventListener("pointerdown", (e) => closeOutside(e.target));
  doc.addEventListener("focusin", (e) => closeOutside(e.target));
  doc.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const menu = menus.find((m) => m.open);
    if (!menu) return;
    menu.open = false;
    if (menu.contains(doc.activeElement)) menu.querySelector("summary")?.focus();
  });
}

// showKeyboardHint shows the keyboard shortcuts' hint only where they work:
// with this script running (the page without it has no Ctrl+Enter), and
// not where the only pointer is a finger that cannot hover (a phone's or a
// tablet's touch screen, which has no Ctrl key either).
export function showKeyboardHint(hint, win = window) {
  if (!hint) return;
  hint.hidden = win.matchMedia("(hover: none) and (pointer: coarse)").matches;
}
