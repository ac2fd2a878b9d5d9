// The page of `puzzlesat serve`: plain JavaScript, no build step. Everything shown is set as text
// (textContent), never as markup, except the pictures, which the server drew.
"use strict";

const $ = (id) => document.getElementById(id);

async function call(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(body)});
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

function say(text, failed) {
  $("status").textContent = text;
  $("status").className = failed ? "error" : "";
}

const asked = () => ({puzzle: $("puzzle").value, text: $("text").value});

async function start() {
  const listed = await (await fetch("/api/puzzles")).json();
  for (const name of listed.puzzles) $("puzzle").append(new Option(name, name));
  for (const name of listed.backends) {
    $("backend").append(new Option(name, name));
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = name;
    const label = document.createElement("label");
    label.append(box, ` ${name} `);
    $("backends-to-check").append(label);
  }
}

$("upload").addEventListener("change", () => {
  const file = $("upload").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => { $("text").value = reader.result; say(`opened ${file.name} (${file.size} bytes)`); };
  reader.onerror = () => say(`cannot read ${file.name}`, true);
  reader.readAsText(file);
});

function offerDownload(report) {
  const link = $("download");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(report, null, 1)], {type: "application/json"}));
  link.hidden = false;
}

// the scalar answers (counts, uniqueness, a weighted count as its exact text); grids and layouts left out
const scalars = (answers) => Object.entries(answers || {}).filter(([, v]) => v === null || typeof v !== "object");

$("solve").addEventListener("click", async () => {
  say("solving…");
  try {
    const backend = $("backend").value;
    const report = await call("/api/solve", {...asked(), ...(backend ? {backend} : {}),
                                             ...($("forced").checked ? {forced: true} : {})});
    const unique = report.answers && typeof report.answers.unique === "boolean"
      ? (report.answers.unique ? ", unique" : ", not unique") : "";
    say(`${report.status}${report.checked ? ", checked" : ""}${unique}` + (report.stopped ? ` (${report.stopped.message})` : ""));
    const forced = report.forced ? `\nforced in every solution: ${report.forced.forced} of ${report.forced.cells} cells`
      + ` ('?': differs)\n${report.forced.grid.join("\n")}` : "";
    $("answers").textContent = Object.entries(report.answers).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("\n")
      + forced + (report.times ? `\ntimes: ${Object.entries(report.times).map(([k, v]) => `${k} ${v.toFixed(3)} s`).join(", ")}` : "");
    $("picture").innerHTML = report.svg || "";
    markingGrid(report.solution);
    offerDownload(report);
  } catch (error) {
    say(error.message, true);
  }
});

// ---- jobs followed as they run: a count, a cross-check ------------------------------------------------
let running = null;  // the name of the job the Stop button stops

async function follow(path, body, onRow) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(body)});
  if (!response.ok) throw new Error((await response.json()).error || `HTTP ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let result = null;
  try {
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, {stream: true});
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        if (line.job) {
          running = line.job;
          $("stop").hidden = false;
        } else if (line.progress) {
          const p = line.progress;
          $("progress").textContent = `${p.command}: ${p.phase} phase${p.done ? `, ${p.done}` : ""}, ${p.seconds} s`;
        } else if (line.row) {
          onRow(line.row);
        } else if (line.result) {
          result = line.result;
        } else if (line.error) {
          throw new Error(line.error);
        }
      }
    }
  } finally {
    running = null;
    $("stop").hidden = true;
    $("progress").textContent = "";
  }
  if (!result) throw new Error("the job ended without an answer");
  return result;
}

// why a job ended early: the Stop button (the command's Ctrl-C), or its limit's own words
const stoppedBy = (stopped) => (stopped.by === "SIGINT" ? "Stop pressed" : stopped.message);

$("stop").addEventListener("click", async () => {
  if (!running) return;
  say("stopping: keeping what was found…");
  try { await call("/api/stop", {job: running}); } catch (error) { say(error.message, true); }
});

$("count").addEventListener("click", async () => {
  say("counting…");
  $("answers").textContent = "";
  try {
    const backend = $("backend").value;
    const report = await follow("/api/count", {...asked(), ...(backend ? {backend} : {})}, () => {});
    const atLeast = report.complete ? "" : "at least ";
    $("answers").textContent = scalars(report.answers).map(([k, v]) => `${k}: ${atLeast}${v}`).join("\n");
    say((report.complete ? "counted" : `stopped (${stoppedBy(report.stopped)}): kept what was found, each solution checked`)
        + (report.method ? `; counted by ${report.method}` : ""));
    offerDownload(report);
  } catch (error) {
    say(error.message, true);
  }
});

function showRow(row) {
  const line = $("rows").tBodies[0].insertRow();
  const answer = scalars(row.at_least && Object.keys(row.at_least).length ? row.at_least : row.answers)
    .map(([k, v]) => `${k}${row.at_least ? ">=" : "="}${v}`).join(" ");
  const agrees = row.agrees ? "yes" : row.status === "TIMEOUT" ? "- (timed out)"
    : row.status === "SKIPPED" || row.status === "MEMOUT" ? `- (${row.error})` : `NO ${row.error}`;
  for (const text of [row.method, row.status, `${row.seconds.toFixed(3)} s`, answer || "-", agrees]) {
    line.insertCell().textContent = text;
  }
  if (agrees.startsWith("NO")) line.className = "disagrees";
}

$("crosscheck").addEventListener("click", async () => {
  say("cross-checking…");
  $("rows").tBodies[0].replaceChildren();
  $("rows").hidden = false;
  try {
    const chosen = [...$("backends-to-check").querySelectorAll("input:checked")].map((box) => box.value);
    const verdict = await follow("/api/crosscheck", {...asked(), ...(chosen.length ? {backends: chosen} : {}),
                                                     ...($("by-count").checked ? {count: true} : {})}, showRow);
    const stopped = verdict.stopped ? ` (stopped: ${stoppedBy(verdict.stopped)}; ${verdict.rows.length} of ` +
      `${verdict.methods_planned} methods in)` : "";
    say((verdict.agree ? `agree: ${verdict.independent_methods_agreeing} independent methods`
      : "DISAGREE: see the rows marked NO") + stopped, !verdict.agree);
    offerDownload(verdict);
  } catch (error) {
    say(error.message, true);
  }
});

$("hint").addEventListener("click", async () => {
  say("looking at your marks…");
  try {
    const hint = await call("/api/hint", {...asked(), marks: $("marks").value});
    const lines = hint.wrong.map((w) => `wrong: row ${w.cell[0] + 1}, column ${w.cell[1] + 1} `
      + `(${w.placement ? `piece ${w.placement[0]} in orientation ${w.placement[1]}` : w.mark}): ${w.why}`);
    if (hint.clashing) lines.push(`these marks cannot all hold: ${hint.clashing.why}`);
    if (hint.next) lines.push(`next: ${hint.next.why}`);
    if (hint.solved) lines.push("solved: your marks are the solution");
    if (hint.no_solution) lines.push(`no solution: ${hint.no_solution.join("; ")}`);
    $("hint-text").textContent = lines.join("\n") || "no wrong mark, and no step forces anything more";
    $("hint-picture").innerHTML = hint.svg || "";
    say(hint.stopped ? `stopped (${hint.stopped.message})` : "checked");
  } catch (error) {
    say(error.message, true);
  }
});

// ---- an explanation, one step at a time -------------------------------------------------------------
let explained = null;
let explainedText = null;
let shown = 0;

// thick lines between cells: [row, col, row2, col2], the cell right of (row, col) or below it
function drawWalls(table, walls) {
  table.classList.toggle("walled", walls.length > 0);
  for (const [r, c, r2, c2] of walls) {
    const cell = table.rows[r] && table.rows[r].cells[c];
    if (cell) cell.classList.add(c2 > c ? "wall-right" : "wall-below");
  }
}

function showStep() {
  const steps = explained.steps;
  const certified = explained.certificate ? `; certified (${explained.certificate.by}'s proofs, checked)`
    : explained.certificate === null ? "; not certified" : "";
  $("step-number").textContent = `step ${shown} of ${steps.length}`;
  $("step-text").textContent = shown === 0 ? "nothing known yet" : steps[shown - 1].facts.join(" + ") + certified;
  const grid = $("step-grid");
  grid.replaceChildren();
  const rows = explained.solution && (explained.solution.grid || explained.solution.layout);
  if (!rows) return;
  const cells = rows.map((line) => [...line].map(() => ({value: null, fresh: false, text: ""})));
  steps.slice(0, shown).forEach((step, index) => {
    for (const fixed of step.cells) {
      const yes = fixed.value === explained.values[1];
      for (const [r, c, piece] of fixed.cells) {
        if (!cells[r] || !cells[r][c]) continue;
        if (!yes && cells[r][c].value === true) continue;  // (a tiling's other placements ruled out)
        cells[r][c] = {value: yes, fresh: index === shown - 1, text: yes && piece !== undefined ? String(piece) : ""};
      }
    }
  });
  for (const line of cells) {
    const row = grid.insertRow();
    for (const cell of line) {
      const td = row.insertCell();
      td.className = (cell.value === null ? "" : cell.value ? "yes" : "no") + (cell.fresh ? " fresh" : "");
      td.textContent = cell.text;
    }
  }
  drawWalls(grid, explained.walls || []);
}

$("explain").addEventListener("click", async () => {
  say("explaining…");
  try {
    const text = $("text").value;
    explained = await call("/api/explain", {...asked(), ...($("certify").checked ? {certify: true} : {})});
    explainedText = text;
    shown = 0;
    $("steps").hidden = false;
    showStep();
    say(`${explained.steps.length} steps` + (explained.solved ? ", every one replayed; the solution checked"
      : explained.stopped ? ` (stopped: ${explained.stopped.message})` : ", not solved"));
  } catch (error) {
    say(error.message, true);
  }
});
$("previous").addEventListener("click", () => { if (explained && shown > 0) { shown -= 1; showStep(); } });
$("next").addEventListener("click", () => { if (explained && shown < explained.steps.length) { shown += 1; showStep(); } });

// ---- exports ------------------------------------------------------------------------------------------
$("export").addEventListener("click", async () => {
  try {
    const exported = await call("/api/export", {...asked(), format: $("format").value});
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([exported.text], {type: "text/plain"}));
    link.download = `${$("puzzle").value}.${$("format").value === "smt2" ? "smt2" : $("format").value === "url" ? "txt" : "cnf"}`;
    link.click();
    say(`exported (${$("format").value})`);
  } catch (error) {
    say(error.message, true);
  }
});

// ---- marks by clicking: a grid of characters (cycled through the solution's), or of a tiling's pieces
// (each click puts the piece in the Piece box, ID/ORIENTATION, or takes it away) ----------------------------
function markingGrid(solution) {
  const characters = solution && Array.isArray(solution.grid) && solution.grid.every((line) => typeof line === "string");
  const pieces = solution && Array.isArray(solution.layout);
  if (!characters && !pieces) return false;
  const rows = characters ? solution.grid.map((line) => [...line]) : solution.layout;
  const symbols = characters ? [...new Set(solution.grid.join(""))].sort() : [];
  $("pen-label").hidden = !pieces;
  const grid = document.createElement("table");
  const marks = () => [...grid.rows].map((row) => [...row.cells].map((td) => td.dataset.mark).join(" ")).join("\n");
  for (const line of rows) {
    const row = grid.insertRow();
    for (let c = 0; c < line.length; c += 1) {
      const td = row.insertCell();
      td.dataset.mark = "?";
      td.addEventListener("click", () => {
        if (pieces) {
          const pen = $("pen").value.trim();
          td.dataset.mark = td.dataset.mark === pen || !pen ? "?" : pen;
        } else {
          const cycle = ["?", ...symbols];
          td.dataset.mark = cycle[(cycle.indexOf(td.dataset.mark) + 1) % cycle.length];
        }
        const mark = td.dataset.mark;
        td.textContent = mark === "?" ? "" : mark;
        // coloured where a cell is one of two things (water or dry, a piece or none); digits stay text
        td.className = mark === "?" || symbols.length > 2 ? "" : pieces || mark === symbols[0] ? "yes" : "no";
        $("marks").value = marks() + "\n";
      });
    }
  }
  if (explained && explainedText === $("text").value) drawWalls(grid, explained.walls || []);
  $("marking").replaceChildren(grid);
  return true;
}

$("mark").addEventListener("click", async () => {
  say("reading the puzzle's grid…");
  try {  // the grid's shape is the solution's: solved here, not shown
    const report = await call("/api/solve", asked());
    say(markingGrid(report.solution) ? "click the cells to mark them; the solution stays hidden"
      : "this puzzle has no grid to mark", !report.solution);
  } catch (error) {
    say(error.message, true);
  }
});

start().catch((error) => say(error.message, true));
