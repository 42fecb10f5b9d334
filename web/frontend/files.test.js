import assert from "node:assert/strict";
import { test } from "node:test";

import { validPath } from "./files.js";

test("a new file is a .rs file of the crate, not main.rs, and not already there", () => {
  assert.equal(validPath("src/model.rs", []), "");
  assert.equal(validPath("src/data/mod.rs", []), "");
  assert.equal(validPath("tests/devices.rs", []), "");
  assert.match(validPath("model.rs", []), /under src\//);
  assert.match(validPath("src/model.txt", []), /ending in \.rs/);
  assert.match(validPath("src/../x.rs", []), /under src\//);
  assert.match(validPath("src/main.rs", []), /first tab/);
  assert.match(validPath("src/model.rs", ["src/model.rs"]), /already a tab/);
});
