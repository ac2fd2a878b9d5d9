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

async function start() {
  const listed = await (await fetch("/api/puzzles")).json();
  for (const name of listed.puzzles) $("puzzle").append(new Option(name, name));
  for (const name of listed.backends) $("backend").append(new Option(name, name));
}

$("solve").addEventListener("click", async () => {
  say("solving…");
  try {
    const backend = $("backend").value;
    const report = await call("/api/solve", {puzzle: $("puzzle").value, text: $("text").value,
                                             ...(backend ? {backend} : {})});
    say(`${report.status}${report.checked ? ", checked" : ""}` + (report.stopped ? ` (${report.stopped.message})` : ""));
    $("answers").textContent = Object.entries(report.answers).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("\n");
    $("picture").innerHTML = report.svg || "";
    const grid = report.solution && report.solution.grid;
    if (Array.isArray(grid) && grid.every((line) => typeof line === "string")) markingGrid(grid);
    const link = $("download");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(report, null, 1)], {type: "application/json"}));
    link.hidden = false;
  } catch (error) {
    say(error.message, true);
  }
});

$("hint").addEventListener("click", async () => {
  say("looking at your marks…");
  try {
    const hint = await call("/api/hint", {puzzle: $("puzzle").value, text: $("text").value, marks: $("marks").value});
    const lines = hint.wrong.map((w) => `wrong: row ${w.cell[0] + 1}, column ${w.cell[1] + 1} (${w.mark}): ${w.why}`);
    if (hint.clashing) lines.push(`these marks cannot all hold: ${hint.clashing.why}`);
    if (hint.next) lines.push(`next: ${hint.next.why}`);
    if (hint.solved) lines.push("solved: your marks are the solution");
    if (hint.no_solution) lines.push(`no solution: ${hint.no_solution.join("; ")}`);
    $("hint-text").textContent = lines.join("\n") || "no wrong mark, and no step forces anything more";
    $("hint-picture").innerHTML = hint.svg || "";
    say("checked");
  } catch (error) {
    say(error.message, true);
  }
});

// ---- an explanation, one step at a time -------------------------------------------------------------
let explained = null;
let shown = 0;

function showStep() {
  const steps = explained.steps;
  $("step-number").textContent = `step ${shown} of ${steps.length}`;
  $("step-text").textContent = shown === 0 ? "nothing known yet" : steps[shown - 1].facts.join(" + ");
  const grid = $("step-grid");
  grid.replaceChildren();
  const rows = explained.solution && explained.solution.grid;
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
}

$("explain").addEventListener("click", async () => {
  say("explaining…");
  try {
    explained = await call("/api/explain", {puzzle: $("puzzle").value, text: $("text").value});
    shown = 0;
    $("steps").hidden = false;
    showStep();
    say(`${explained.steps.length} steps${explained.solved ? ", every one replayed; the solution checked" : ""}`);
  } catch (error) {
    say(error.message, true);
  }
});
$("previous").addEventListener("click", () => { if (explained && shown > 0) { shown -= 1; showStep(); } });
$("next").addEventListener("click", () => { if (explained && shown < explained.steps.length) { shown += 1; showStep(); } });

// ---- exports ------------------------------------------------------------------------------------------
$("export").addEventListener("click", async () => {
  try {
    const exported = await call("/api/export", {puzzle: $("puzzle").value, text: $("text").value, format: $("format").value});
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([exported.text], {type: "text/plain"}));
    link.download = `${$("puzzle").value}.${$("format").value === "smt2" ? "smt2" : $("format").value === "url" ? "txt" : "cnf"}`;
    link.click();
    say(`exported (${$("format").value})`);
  } catch (error) {
    say(error.message, true);
  }
});

// ---- marks by clicking a grid of characters (an aquarium's) -------------------------------------------
function markingGrid(rows) {
  const grid = document.createElement("table");
  const marks = () => [...grid.rows].map((row) => [...row.cells].map((td) => td.dataset.mark).join(" ")).join("\n");
  for (const line of rows) {
    const row = grid.insertRow();
    for (let c = 0; c < line.length; c += 1) {
      const td = row.insertCell();
      td.dataset.mark = "?";
      td.addEventListener("click", () => {
        td.dataset.mark = {"?": "#", "#": ".", ".": "?"}[td.dataset.mark];
        td.className = td.dataset.mark === "#" ? "yes" : td.dataset.mark === "." ? "no" : "";
        $("marks").value = marks() + "\n";
      });
    }
  }
  $("marking").replaceChildren(grid);
}

start().catch((error) => say(error.message, true));
