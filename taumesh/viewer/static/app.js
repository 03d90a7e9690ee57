// taumesh viewer: hash-routed pages over the JSON API (/api/...). No dependencies, works offline.
"use strict";

const main = document.getElementById("main");
const crumbs = document.getElementById("crumbs");
const COLORS = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a"];
const PAGE = 100;

// h("tag", {attr: value}, child...): build an element; text children are escaped by the DOM.
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

function svg(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, value);
  for (const child of children.flat()) el.append(child instanceof Node ? child : String(child));
  return el;
}

async function api(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

const fmt = (x, digits = 4) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));
const money = (x) => (x === null || x === undefined ? "–" : "$" + Number(x).toFixed(4));
const enc = encodeURIComponent;

function table(head, rows, attrs) {
  return h("table", attrs, h("thead", {}, h("tr", {}, head.map((c) => h("th", {}, c)))), h("tbody", {}, rows));
}

// The server's success test (taumesh.stats.is_success), with the tolerance the server sends in each task page.
const isSuccess = (reward, tolerance) => 1 - tolerance <= reward && reward <= 1 + tolerance;

function outcomeCell(reward, href, tolerance) {
  let cls = "none", label = "·";
  if (reward === null) { cls = "error"; label = "err"; }
  else if (reward !== undefined) { cls = isSuccess(reward, tolerance) ? "pass" : "fail"; label = fmt(reward, 1); }
  return href ? h("a", { class: `cell ${cls}`, href, "data-reward": reward ?? "" }, label) : h("span", { class: `cell ${cls}` }, label);
}

// A line plot of pass^k over k, one series per run.
function passPlot(series) {
  const width = 420, height = 250, left = 44, bottom = 36, top = 10, right = 10;
  const maxK = Math.max(1, ...series.map((s) => Object.keys(s.values).length));
  const x = (k) => left + (maxK === 1 ? (width - left - right) / 2 : ((k - 1) / (maxK - 1)) * (width - left - right));
  const y = (v) => top + (1 - v) * (height - top - bottom);
  const plot = svg("svg", { width, height, class: "passk-plot", role: "img", "aria-label": "pass^k over k" });
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    plot.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), stroke: "#eee" }));
    plot.append(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" }, v.toFixed(2)));
  }
  for (let k = 1; k <= maxK; k++) plot.append(svg("text", { x: x(k), y: height - 16, "text-anchor": "middle" }, k));
  plot.append(svg("text", { x: (left + width - right) / 2, y: height - 2, "text-anchor": "middle" }, "k"));
  series.forEach((s, i) => {  // the 95 % interval as a band under each line
    const bands = Object.entries(s.intervals || {}).map(([k, iv]) => [Number(k), iv]);
    if (!bands.length) return;
    const edge = bands.map(([k, iv]) => `${x(k)},${y(iv.high)}`).concat(bands.slice().reverse().map(([k, iv]) => `${x(k)},${y(iv.low)}`));
    if (bands.length === 1) {
      const [k, iv] = bands[0];
      plot.append(svg("rect", { x: x(k) - 8, y: y(iv.high), width: 16, height: Math.max(1, y(iv.low) - y(iv.high)), fill: COLORS[i % 5], "fill-opacity": 0.18, class: "passk-band" }));
    } else {
      plot.append(svg("polygon", { points: edge.join(" "), fill: COLORS[i % 5], "fill-opacity": 0.18, stroke: "none", class: "passk-band" }));
    }
  });
  series.forEach((s, i) => {
    const points = Object.entries(s.values).map(([k, v]) => [x(Number(k)), y(v)]);
    plot.append(svg("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: COLORS[i % 5], "stroke-width": 2 }));
    for (const [px, py] of points) plot.append(svg("circle", { cx: px, cy: py, r: 3, fill: COLORS[i % 5] }));
  });
  const legend = h("div", { class: "legend" }, series.map((s, i) => h("span", {}, h("i", { style: `background:${COLORS[i % 5]}` }), s.label)));
  const note = series.some((s) => Object.keys(s.intervals || {}).length) ? h("p", { class: "muted band-note" }, "bands: 95 % bootstrap intervals over tasks, trials nested") : null;
  return h("div", {}, plot, series.length > 1 ? legend : null, note);
}

// "0.6000 (0.5130–0.6870)": a figure with its interval.
function withInterval(iv, digits = 4) {
  return iv ? `${fmt(iv.estimate, digits)} (${fmt(iv.low, digits)}–${fmt(iv.high, digits)})` : "–";
}

function histogram(bins) {
  const width = 320, height = 160, bar = (width - 40) / bins.length, most = Math.max(1, ...bins);
  const plot = svg("svg", { width, height, class: "reward-histogram", role: "img", "aria-label": "reward distribution" });
  bins.forEach((count, i) => {
    const barHeight = (count / most) * (height - 40);
    plot.append(svg("rect", { x: 30 + i * bar, y: height - 20 - barHeight, width: bar - 2, height: barHeight, fill: i === bins.length - 1 ? "#2e7d32" : "#90a4ae" }));
    if (count) plot.append(svg("text", { x: 30 + i * bar + bar / 2, y: height - 24 - barHeight, "text-anchor": "middle" }, count));
  });
  plot.append(svg("text", { x: 30, y: height - 5 }, "0"));
  plot.append(svg("text", { x: width - 10, y: height - 5, "text-anchor": "end" }, "1"));
  return plot;
}

function passTable(values, intervals) {
  const ci = intervals || {};
  return table(["k", "pass^k", "95 % CI"], Object.entries(values).map(([k, v]) =>
    h("tr", { "data-k": k }, h("td", {}, k), h("td", { class: "num passk-value" }, fmt(v)),
      h("td", { class: "num passk-ci" }, ci[k] ? `${fmt(ci[k].low)}–${fmt(ci[k].high)}` : "–"))), { id: "passk" });
}

async function runList() {
  crumbs.textContent = "";
  const [runs, unreadable] = await Promise.all([api("/api/runs"), api("/api/unreadable")]);
  const chosen = new Set();
  const button = h("button", { id: "compare", disabled: true, onclick: () => { location.hash = `#/compare/${[...chosen].join(",")}`; } }, "Compare selected");
  const rows = runs.map((r) => h("tr", { "data-run": r.run_id },
    h("td", {}, h("input", { type: "checkbox", "aria-label": `select ${r.name}`, onchange: (e) => {
      e.target.checked ? chosen.add(r.run_id) : chosen.delete(r.run_id);
      button.disabled = chosen.size < 2 || chosen.size > 5;
    } })),
    h("td", {}, h("a", { href: `#/run/${r.run_id}` }, r.name)), h("td", {}, r.domain), h("td", {}, r.model), h("td", {}, r.strategy),
    h("td", { class: "user-sim", title: r.user }, r.user_sim_version), h("td", { class: "num" }, r.tasks), h("td", { class: "num" }, r.trials), h("td", { class: "num" }, r.errors),
    h("td", { class: "num" }, fmt(r.pass_hat_k["1"])), h("td", { class: "num" }, fmt(r.average_reward)), h("td", { class: "num" }, money(r.cost_per_task))));
  main.replaceChildren(h("h1", {}, "Runs"),
    table(["", "results file", "domain", "model", "strategy", "user simulator", "tasks", "trials", "errors", "pass^1", "avg reward", "cost/task"], rows, { id: "runs" }),
    h("p", {}, button, h("span", { class: "muted" }, " pick 2 to 5 runs on the same tasks")),
    ...(unreadable.length ? [unreadableFiles(unreadable)] : []));  // replaceChildren writes a null as "null"
}

// Results files that did not read (still being written, or not results): listed with the reason, read again once changed.
function unreadableFiles(files) {
  return h("section", {}, h("h2", {}, "Unreadable files"),
    table(["results file", "reason"], files.map((f) => h("tr", { "data-run": f.run_id },
      h("td", { title: f.path }, f.name), h("td", { class: "check-fail" }, f.reason))), { id: "unreadable" }));
}

// Beside the score, what the stored audit says of the tasks run (docs/validity.md), or how to make one.
function validityCard(found) {
  if (!found) return null;
  const extras = [found.grader !== "faithful" ? `grader ${found.grader}` : "", found.tasks === "certified" ? "certified tasks only" : ""].filter(Boolean);
  const v = found.validity;
  if (!v) return h("div", { class: "card", id: "validity" }, h("h2", {}, "Validity"), h("p", { class: "muted" }, found.missing), extras.length ? h("p", {}, extras.join(", ")) : null);
  const rows = [
    ["certified score", v.certified_score === null ? "n/a" : `${fmt(v.certified_score)} (${v.certified_episodes} episodes)`],
    ["null floor", `${(100 * v.null_floor_tasks / Math.max(v.tasks_run, 1)).toFixed(1)} % (${v.null_floor_tasks}/${v.tasks_run} tasks)`],
    ["flagged tasks", `${v.flagged_tasks}/${v.tasks_run}`],
    ["bounds (flagged as failed, as passed)", `${fmt(v.lower_bound)} to ${fmt(v.upper_bound)}`],
    ["audit version", v.audit_version], ...extras.map((e) => ["note", e]),
  ];
  return h("div", { class: "card", id: "validity" }, h("h2", {}, "Validity"),
    h("table", { id: "validity-numbers" }, h("tbody", {}, rows.map(([k, x]) => h("tr", {}, h("th", {}, k), h("td", { class: "num" }, x))))));
}

async function runPage(runId, params) {
  const detail = await api(`/api/runs/${runId}`);
  const s = detail.summary;
  crumbs.replaceChildren(" / ", h("a", { href: `#/run/${runId}` }, s.name));
  const numbers = h("table", { id: "numbers" }, h("tbody", {}, [
    ["episodes", s.episodes], ["scored", s.scored], ["infrastructure errors", s.errors], ["successes", s.successes],
    ["tasks", s.tasks], ["trials", s.trials], ["average reward (95 % CI)", withInterval(s.average_reward_interval)],
    ["tasks flipping between trials", s.flipping.length],
    ["agent cost", money(s.agent_cost)], ["user cost", money(s.user_cost)], ["judge cost", money(s.judge_cost)],
    ["total cost", money(s.total_cost) + (s.interrupted_cost ? ` (${money(s.interrupted_cost)} interrupted)` : "")],
    ["agent tokens", s.agent_tokens], ["user tokens", s.user_tokens],
    ["cost per task", money(s.cost_per_task)], ["cost per solved task", money(s.cost_per_solved_task)],
  ].map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", { class: "num" }, v)))));
  const terminations = table(["termination", "episodes"], Object.entries(s.terminations).map(([k, v]) =>
    h("tr", {}, h("td", {}, k), h("td", { class: "num" }, v))), { id: "terminations" });
  let faults = null;
  if (detail.faults) {
    const f = detail.faults;
    faults = h("div", { class: "card", id: "faults" }, h("h2", {}, "Failure analysis"),
      h("p", {}, `${f.failed} failed episodes analysed by ${f.model}`),
      table(["author", "episodes"], Object.entries(f.authors || {}).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", { class: "num" }, v)))),
      table(["fault type", "episodes"], Object.entries(f.fault_types || {}).map(([k, v]) => h("tr", {}, h("td", {}, k), h("td", { class: "num" }, v)))));
  }
  const grid = h("div", { id: "grid" });
  const validity = validityCard(s.validity);
  main.replaceChildren(
    h("h1", {}, s.name),
    h("p", { class: "muted" }, `${detail.format} results · ${detail.path}`),
    h("p", { id: "user-sim" }, "user simulator: ", h("strong", {}, s.user_sim_version), s.user ? ` (${s.user})` : ""),
    h("div", { class: "cards" },
      h("div", { class: "card" }, h("h2", {}, "pass^k"), passTable(s.pass_hat_k, s.pass_hat_k_intervals),
        passPlot([{ label: s.name, values: s.pass_hat_k, intervals: s.pass_hat_k_intervals }]),
        h("p", { class: "muted", id: "interval-method" }, s.average_reward_interval ? `intervals: ${s.average_reward_interval.method}` : "")),
      h("div", { class: "card" }, h("h2", {}, "Reward distribution"), histogram(s.reward_histogram), h("h2", {}, "Terminations"), terminations),
      h("div", { class: "card" }, h("h2", {}, "Cost and tokens"), numbers),
      validity,
      faults,
      h("details", { class: "card" }, h("summary", {}, "Configuration"), h("pre", { id: "config" }, JSON.stringify(detail.config, null, 1)))),
    h("h2", {}, "Tasks across trials"), grid);
  await taskGrid(grid, runId, params.get("filter") || "all", Number(params.get("offset") || 0), params.get("label") || "");
}

async function taskGrid(container, runId, filter, offset, label) {
  const page = await api(`/api/runs/${runId}/tasks?filter=${enc(filter)}&offset=${offset}&limit=${PAGE}&label=${enc(label)}`);
  const go = (f, o, l = label) => { location.hash = `#/run/${runId}?filter=${f}&offset=${o}&label=${enc(l)}`; };
  const select = h("select", { id: "task-filter", onchange: (e) => go(e.target.value, 0) },
    [["all", "all tasks"], ["failed", "failed only"], ["inconsistent", "inconsistent across trials"], ["errors", "errors"]].map(([v, label]) =>
      h("option", { value: v, selected: v === filter }, label)));
  // the domain's task labels (healthcare: intent, tier, trap), when its tasks record any
  const labelNames = Object.keys(page.labels || {});
  const labelSelect = labelNames.length === 0 ? null : h("select", { id: "label-filter", onchange: (e) => go(filter, 0, e.target.value) },
    h("option", { value: "", selected: label === "" }, "any label"),
    labelNames.flatMap((name) => page.labels[name].map((v) => h("option", { value: `${name}=${v}`, selected: label === `${name}=${v}` }, `${name}: ${v}`))));
  const end = Math.min(page.total, offset + page.limit);
  const pager = h("div", { class: "pager" }, select, labelSelect,
    h("button", { disabled: offset === 0, onclick: () => go(filter, Math.max(0, offset - PAGE)) }, "◀ previous"),
    h("span", { id: "page-info" }, `${page.total ? offset + 1 : 0}–${end} of ${page.total} tasks`),
    h("button", { disabled: end >= page.total, onclick: () => go(filter, offset + PAGE) }, "next ▶"));
  const rows = page.rows.map((row) => h("tr", { class: `status-${row.status}`, "data-task": row.task_id },
    h("td", {}, row.task_id), h("td", {}, row.status),
    labelNames.map((name) => h("td", { class: `label-${name}` }, (row.labels || {})[name] || "")),
    page.trials.map((t) => h("td", {}, outcomeCell(row.rewards[t], row.rewards[t] === undefined ? null : `#/episode/${runId}/${enc(row.task_id)}/${t}`, page.success_tolerance)))));
  container.replaceChildren(pager, table(["task", "status", ...labelNames, ...page.trials.map((t) => `trial ${t}`)], rows, { id: "tasks" }));
}

function actionText(action) {
  const args = action.kwargs === undefined ? {} : action.kwargs;
  return `${action.name}(${typeof args === "string" ? args : JSON.stringify(args)})`;
}

// Who a message is from: the agent's tool results ("tool"), the user's own tool calls and results ("user-tool").
function messageClass(message) {
  const role = message.role || "?";
  if (role === "user" && (message.tool_calls || []).length) return "user user-acts";
  if (role === "tool" && message.requestor === "user") return "tool user-tool";
  return role;
}

function messageLabel(message) {
  const role = message.role || "?";
  if (role === "user" && (message.tool_calls || []).length) return "user calls its own tools";
  if (role === "tool") return `${message.requestor === "user" ? "user's tool result" : "tool result"} ${message.tool_call_id || ""}`;
  return role;
}

// diverged: message index → what diverged there ("the gold actions" or "the user's gold actions").
function messageView(message, index, diverged) {
  const calls = (message.tool_calls || []).map((c) => h("div", { class: "call" }, `→ ${c.function?.name}(${c.function?.arguments})`,
    c.requestor && c.requestor !== "assistant" ? ` [${c.requestor}]` : ""));
  const from = diverged.get(index);
  return h("div", { class: `msg ${messageClass(message)}${from ? " diverged" : ""}`, "data-index": index, id: `m${index}` },
    h("div", { class: "role" }, messageLabel(message), from ? ` — first divergence from ${from}` : ""),
    message.content ? h("pre", {}, typeof message.content === "string" ? message.content : JSON.stringify(message.content)) : null, calls);
}

// One side's calls beside its gold actions, the first divergence marked; each call links to its message.
function actionTable(actions, gold, divergedAt, id, who) {
  const rows = [];
  for (let i = 0; i < Math.max(actions.length, gold.length); i++) {
    const made = actions[i], expected = gold[i];
    rows.push(h("tr", { class: i === divergedAt ? "diverged" : "", "data-step": i },
      h("td", { class: "num" }, i + 1),
      h("td", {}, expected ? h("pre", {}, actionText(expected)) : h("span", { class: "muted" }, "—")),
      h("td", {}, made ? h("a", { href: `#m${made.message_index}`, onclick: (ev) => { ev.preventDefault(); document.getElementById(`m${made.message_index}`).scrollIntoView(); } }, h("pre", {}, actionText(made))) : h("span", { class: "muted" }, "—"))));
  }
  return table(["step", "gold", who], rows, { id });
}

async function episodePage(runId, taskId, trial) {
  const d = await api(`/api/runs/${runId}/episodes/${enc(taskId)}/${trial}`);
  const e = d.episode, div = d.divergence;
  crumbs.replaceChildren(" / ", h("a", { href: `#/run/${runId}` }, d.run_name), ` / task ${taskId} trial ${trial}`);
  const checks = table(["basis", "check", "result", "expected", "actual"], e.reward_checks.map((c) =>
    h("tr", { class: c.passed ? "" : "failed-check" }, h("td", {}, c.basis), h("td", {}, h("pre", {}, c.subject || "")),
      h("td", { class: c.passed ? "check-pass" : "check-fail" }, c.passed ? "passed" : "failed"),
      h("td", {}, h("pre", {}, c.expected || "")), h("td", {}, h("pre", {}, (c.actual || "") + (c.explanation ? `\n${c.explanation}` : ""))))), { id: "checks" });
  const verdict = div.index === null ? "The agent's calls equal the gold actions." : `First divergence at step ${div.index + 1}.`;
  const diverged = new Map();
  if (div.user && div.user.message_index !== null) diverged.set(div.user.message_index, "the user's gold actions");
  if (div.message_index !== null) diverged.set(div.message_index, "the gold actions");
  const userSide = div.user ? [
    h("h2", {}, "The user's gold actions beside its own calls"),
    h("p", { id: "user-divergence" }, div.user.index === null ? "The user's calls equal its gold actions." : `The user's first divergence at step ${div.user.index + 1}.`),
    actionTable(div.user.actions, div.user.gold_actions, div.user.index, "user-actions", "user")] : [];
  main.replaceChildren(
    h("h1", {}, `Task ${taskId}, trial ${trial}`),
    h("div", { class: "cards" },
      h("div", { class: "card" }, h("table", { id: "episode-facts" },
        [["reward", e.reward === null ? "error" : fmt(e.reward)], ["termination", e.termination || "–"], ["error", e.error || "–"],
          ["agent cost", money(e.agent_cost)], ["user cost", money(e.user_cost)], ["tokens", `${e.agent_tokens} agent, ${e.user_tokens} user`]]
          .map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v)))),
        d.jaeger_url ? h("p", {}, h("a", { href: d.jaeger_url, id: "jaeger", target: "_blank", rel: "noopener" }, "Open the trace in Jaeger")) : null),
      h("div", { class: "card" }, h("h2", {}, "Instruction"), h("pre", {}, e.instruction || "–"))),
    h("h2", {}, "Reward checks"), checks,
    h("h2", {}, "Gold actions beside the agent's"), h("p", { id: "divergence" }, verdict),
    actionTable(div.agent_actions, div.gold_actions, div.index, "actions", "agent"),
    ...userSide,
    h("h2", {}, "Conversation"),
    h("div", { id: "conversation" }, e.messages.map((m, i) => messageView(m, i, diverged))));
}

async function comparePage(ids) {
  const c = await api(`/api/compare?runs=${enc(ids.join(","))}`);
  crumbs.textContent = " / compare";
  const names = c.runs.map((r) => r.name);
  const summary = table(["run", "model", "strategy", "user simulator", "pass^1", "avg reward", "cost/solved"], c.runs.map((r, i) =>
    h("tr", {}, h("td", {}, h("a", { href: `#/run/${r.run_id}`, style: `color:${COLORS[i]}` }, r.name)), h("td", {}, r.model), h("td", {}, r.strategy),
      h("td", { class: "user-sim" }, r.user_sim_version),
      h("td", { class: "num" }, fmt(r.pass_hat_k["1"])), h("td", { class: "num" }, fmt(r.average_reward)), h("td", { class: "num" }, money(r.cost_per_solved_task)))), { id: "compare-summary" });
  const matrix = table(["task", ...names.map((n, i) => `run ${i + 1}`)], c.tasks.map((task) =>
    h("tr", { "data-task": task }, h("td", {}, task), c.outcomes[task].map((rate, i) => h("td", {},
      rate === null ? outcomeCell(null) : h("a", { class: `cell ${rate === 1 ? "pass" : rate === 0 ? "fail" : "partial"}`, href: `#/episode/${c.runs[i].run_id}/${enc(task)}/0` }, fmt(rate, 2)))))), { id: "matrix" });
  const only = c.runs.map((r, i) => h("div", { class: "card", "data-run": r.run_id },
    h("h2", {}, `Solved by run ${i + 1} only`), h("p", { class: "muted" }, r.name),
    h("ul", { class: "solved-only" }, (c.solved_by_only[r.run_id] || []).map((t) => h("li", {}, `task ${t}`)))));
  main.replaceChildren(h("h1", {}, `Comparing ${c.runs.length} runs on ${c.tasks.length} shared tasks`),
    summary, ...simulatorWarning(c.runs), pairedSection(c), h("h2", {}, "pass^k"),
    passPlot(c.runs.map((r) => ({ label: r.name, values: r.pass_hat_k, intervals: r.pass_hat_k_intervals }))),
    h("div", { class: "cards" }, only), h("h2", {}, "Per-task success rate"), matrix);
}

// Runs played against different user simulators (info.user_sim_version): their scores are not comparable.
function simulatorWarning(runs) {
  const versions = [...new Set(runs.map((r) => r.user_sim_version))];
  if (versions.length < 2) return [];  // replaceChildren writes a null as "null"
  return [h("p", { class: "check-fail", id: "simulator-warning" },
    `Played against different user simulators (${versions.join("; ")}): scores from different simulators are not comparable (τ² pins simulator versions for that reason).`)];
}

// Each run against the first, paired on tasks and trials: the difference with its interval, the test, the driving tasks.
function pairedSection(c) {
  const label = (i) => String.fromCharCode(65 + i);
  const names = h("p", { class: "muted" }, c.runs.map((r, i) => `${label(i)} = run ${i + 1} (${r.name})`).join(" · "));
  const points = (iv) => `${(iv.estimate * 100).toFixed(1)} points (95 % CI ${(iv.low * 100).toFixed(1)} to ${(iv.high * 100).toFixed(1)})`;
  const cards = c.paired.map((p, n) => {
    const x = p.comparison;
    const runIndex = n + 1;
    const body = [h("p", { class: `verdict ${x && x.significant ? "check-pass" : ""}`, "data-run": p.run_b }, p.verdict)];
    for (const d of p.differences) body.push(h("p", { class: "check-fail difference-flag" }, `differs: ${d}`));
    for (const note of p.notes) body.push(h("p", { class: "muted" }, note));
    if (x) {
      body.push(table(["figure", "difference B − A", "test"], [
        h("tr", {}, h("td", {}, "pass^1"), h("td", { class: "num pass1-difference" }, points(x.pass1_difference)), h("td", { class: "p-value" }, `p = ${Number(x.p_value).toPrecision(2)}`)),
        h("tr", {}, h("td", {}, "average reward"), h("td", { class: "num" }, points(x.reward_difference)), h("td", {}, "")),
      ], { class: "paired-figures" }));
      body.push(h("p", { class: "muted" }, `${x.test}; interval: ${x.pass1_difference.method}`));
      body.push(h("h3", {}, `Tasks driving the difference (${x.better.length} better in ${x.name_b}, ${x.worse.length} worse)`));
      body.push(table(["task", `${x.name_a} rate`, `${x.name_b} rate`], x.driving.map((t) => h("tr", { "data-task": t.task_id, class: t.rate_b > t.rate_a ? "gain" : "loss" },
        h("td", {}, h("a", { href: `#/episode/${c.runs[runIndex].run_id}/${enc(t.task_id)}/0` }, t.task_id)),
        h("td", { class: "num" }, fmt(t.rate_a, 2)), h("td", { class: "num" }, fmt(t.rate_b, 2)))), { class: "driving-tasks" }));
    }
    return h("div", { class: "card paired" }, h("h2", {}, `${label(runIndex)} against A`), ...body);
  });
  return h("section", { id: "paired" }, names, h("div", { class: "cards" }, cards));
}

async function route() {
  const [path, query] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query || "");
  main.dataset.ready = "false";
  try {
    if (parts[0] === "run") await runPage(parts[1], params);
    else if (parts[0] === "episode") await episodePage(parts[1], parts[2], Number(parts[3]));
    else if (parts[0] === "compare") await comparePage(parts[1].split(","));
    else await runList();
  } catch (error) {
    main.replaceChildren(h("p", { class: "check-fail" }, String(error)));
  }
  main.dataset.ready = "true";
}

window.addEventListener("hashchange", route);
route();
