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

start().catch((error) => say(error.message, true));
