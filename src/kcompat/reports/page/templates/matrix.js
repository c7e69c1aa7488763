"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const CLS = {pass: "p", unsupported: "u", deviation: "d", fail: "f", infra_error: "e"};
  // Cells come in the grid's document order: the i-th verdict cell is D.cells[i].
  const tds = Array.from(document.querySelectorAll("#matrix td.p,#matrix td.u,#matrix td.d,#matrix td.f,#matrix td.e"));
  const cellOf = new Map();
  tds.forEach(function (td, i) { cellOf.set(td, i); });
  const V = D.values;

  function cellId(c) {
    const col = D.columns[c[1]];
    return D.claims[c[0]] + "[" + col[0] + "-" + col[1] + (col[2] || "") + "|" + D.clients[c[2]] + "]";
  }
  function kipOf(c) { return D.claims[c[0]].split("/")[0]; }
  function shq(s) {  // Python's shlex.quote, so the page and the Markdown print one command
    return /^[\w@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\"'\"'") + "'";
  }
  function repro(c) { return "kcompat repro " + shq(cellId(c)) + " --run " + shq(D.runs[c[14]][0]); }
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (ch) {
      if (ch !== null && ch !== undefined) node.appendChild(typeof ch === "string" ? document.createTextNode(ch) : ch);
    });
    return node;
  }
  function js(value) { return value === undefined ? "—" : JSON.stringify(value); }
  function v(n) { return n === null || n === undefined ? "none" : "v" + n; }

  // Filters: KIP and client narrow what is counted; verdicts dim the other cells and hide empty rows.
  const fKip = document.getElementById("f-kip"), fClient = document.getElementById("f-client");
  const fOut = Array.from(document.querySelectorAll(".f-out"));
  function apply() {
    const kip = fKip.value, client = fClient.value;
    const outs = new Set(fOut.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }));
    const counts = {}; D.outcomes.forEach(function (o) { counts[o] = 0; });
    let shown = 0, intermittent = 0;
    document.querySelectorAll("#matrix section.block").forEach(function (block) {
      const clientOk = !client || block.dataset.client === client;
      block.hidden = !clientOk;
      let groupRow = null, groupAny = false;
      block.querySelectorAll("tbody tr").forEach(function (tr) {
        if (tr.classList.contains("g")) {
          if (groupRow) groupRow.hidden = !groupAny;
          groupRow = tr; groupAny = false; return;
        }
        const kipOk = !kip || tr.dataset.k === kip;
        let any = false;
        tr.querySelectorAll("td").forEach(function (td) {
          const i = cellOf.get(td);
          if (i === undefined) return;
          const outcome = D.outcomes[D.cells[i][3]];
          const match = outs.has(outcome);
          td.classList.toggle("h", !match);
          if (clientOk && kipOk) { counts[outcome] += 1; if (match) shown += 1; if (D.cells[i][18] && D.cells[i][18][2]) intermittent += 1; }
          any = any || match;
        });
        tr.hidden = !(kipOk && any);
        groupAny = groupAny || !tr.hidden;
      });
      if (groupRow) groupRow.hidden = !groupAny;
    });
    D.outcomes.forEach(function (o) { document.getElementById("count-" + o).textContent = counts[o]; });
    document.getElementById("shown").textContent = shown;
    document.getElementById("count-intermittent").textContent = intermittent;
  }
  [fKip, fClient].concat(fOut).forEach(function (input) { input.addEventListener("change", apply); });

  // The detail of one cell.
  const aside = document.getElementById("detail");
  let selected = null;
  function compare(documented, observed, differences) {
    const expect = documented.expect || {}, said = documented.said || {};
    const diff = new Set(differences.map(function (d) { return d.key; }));
    const keys = Object.keys(expect);
    Object.keys(observed).concat(Array.from(diff)).forEach(function (k) { if (keys.indexOf(k) < 0) keys.push(k); });
    const rows = keys.map(function (k) {
      return el("tr", diff.has(k) ? {"class": "diff"} : {}, [
        el("th", {}, [k]), el("td", {}, [el("code", {}, [Object.prototype.hasOwnProperty.call(said, k) ? said[k] : js(expect[k])])]),
        el("td", {"class": "obs"}, [el("code", {}, [js(observed[k])])])]);
    });
    return el("table", {"class": "cmp", id: "cmp"}, [
      el("thead", {}, [el("tr", {}, [el("th", {}, ["key"]), el("th", {}, ["documented (" + (documented["case"] || "?") + ")"]),
        el("th", {}, ["observed"])])]), el("tbody", {}, rows)]);
  }
  function limitText(c) {
    const required = V[c[8]] || {};
    if (!c[4]) return null;
    const side = {broker: "the broker's", client: "the client's", both: "both sides'"}[c[4]];
    return "limited by " + c[4] + ": " + side + " newest " + D.apis[c[0]] + " is below v" + required.min;
  }
  function heldText(o) { return "held " + o[0] + " of " + o[1]; }
  // A cell observed more than once (its first observation deviated): k of n, and each observation.
  function observations(c) {
    const o = c[18];
    if (!o) return [];
    const what = o[2] ? "Intermittent: the documented behaviour " + heldText(o) + " observations, on one cluster; a deviation, since it did not hold every time."
      : "Steady: the documented behaviour " + heldText(o) + " observations, on one cluster.";
    const rows = (V[o[3]] || []).map(function (obs, k) {
      const diffs = (obs.differences || []).map(function (d) { return d.key + ": " + js(d.observed); }).join("; ");
      return el("tr", obs.outcome === "deviation" ? {"class": "diff"} : {}, [
        el("td", {}, [String(k + 1)]),
        el("td", {}, [el("span", {"class": "badge " + (CLS[obs.outcome] || "")}, [String(obs.outcome)])]),
        el("td", {}, [el("code", {}, [diffs || (obs.outcome === "deviation" ? "" : obs.reason || "as documented")])]),
        el("td", {}, [obs.call_ms === null || obs.call_ms === undefined ? "" : obs.call_ms + " ms"])]);
    });
    return [el("h4", {}, ["Observations"]), el("p", {id: "d-observations"}, [what]),
      el("table", {"class": "cmp", id: "d-observation-list"}, [
        el("thead", {}, [el("tr", {}, [el("th", {}, ["#"]), el("th", {}, ["outcome"]), el("th", {}, ["what differed"]),
          el("th", {}, ["call"])])]), el("tbody", {}, rows)])];
  }
  function deadlineText(observed) {  // a call that returned only when its adapter's deadline expired
    return typeof observed.deadline_reached === "number" ? "reached its " + observed.deadline_reached + " s deadline" : "";
  }
  // Which document's words decided the cell (records from before carry no decided_by: the claim's own).
  const RANKS = {introduced: "the KIP that introduced the feature, ahead of the javadoc's minimum release",
    removal: "the removal of old request versions, ahead of the javadoc's minimum release",
    javadoc: "the javadoc's minimum release: below it, the call is refused",
    generated: "No document speaks of this pair: the protocol's refusal decides it"};
  function saysHeading(documented) {
    const by = documented.decided_by;
    if (documented.precedence === "generated") return "What the protocol says";
    if (by) return by === "DOCS-admin" ? "What the javadoc says" : "What " + by + " says";
    return documented.javadoc ? "What the javadoc says" : "What the KIP says";
  }
  function decidedText(documented, own) {  // own: the cell's document, whose own fallback needs no note
    if (documented.precedence === "introduced" && documented.decided_by === own) return "";
    const rank = RANKS[documented.precedence];
    if (!rank) return "";
    return documented.decided_by ? "decided by " + documented.decided_by + ": " + rank : rank;
  }
  function show(i) {
    const c = D.cells[i], outcome = D.outcomes[c[3]];
    const documented = V[c[9]] || {}, observed = V[c[10]] || {}, differences = V[c[11]] || [];
    const required = V[c[8]] || {};
    const quotes = (documented.quotes || []).map(function (q) { return el("blockquote", {}, [q]); });
    const javadoc = documented.javadoc;  // DOCS-admin: whose javadoc (release, path:line) the quote is
    const overridden = javadoc && documented.decided_by && documented.decided_by !== "DOCS-admin";
    const decided = decidedText(documented, cellId(c).split("/")[0]);
    const whose = javadoc ? el("p", {"class": "src", id: "d-javadoc"}, [(overridden ? "in place of the javadoc's refusal: " : "") +
      "kafka-clients " + javadoc.release + ", " +
      javadoc.source + (javadoc.line ? ":" + javadoc.line : "") +
      (javadoc.has_method ? "" : " · this release has no " + (javadoc.statement === "method" ? "method " + javadoc.method
        : javadoc.statement + " for " + javadoc.method)) + (javadoc.note ? " · " + javadoc.note : "")]) : null;
    const log = c[13] === null ? null : V[c[13]];
    const facts = el("dl", {"class": "facts"}, [
      el("dt", {}, ["API"]), el("dd", {}, [D.apis[c[0]]]),
      el("dt", {}, ["request version sent"]), el("dd", {id: "d-reqv"}, [c[5] === null ? "not observable" : v(c[5])]),
      el("dt", {}, ["claim's range"]), el("dd", {}, [v(required.min) + " … " + (required.max === null || required.max === undefined ? "newest" : v(required.max))]),
      el("dt", {}, ["broker's newest"]), el("dd", {}, [c[6] === null ? "does not offer the API" : v(c[6])]),
      el("dt", {}, ["client's newest"]), el("dd", {}, [v(c[7])]),
      el("dt", {}, ["run"]), el("dd", {}, [D.runs[c[14]][0] + " (" + D.runs[c[14]][1] + ", " + D.runs[c[14]][2] + ")"]),
      el("dt", {}, ["log"]), el("dd", {id: "d-log"}, [log ? el("a", {href: log[1]}, [log[0]]) : "none recorded"])]);
    let history = null;
    if (c[15]) {
      history = el("ol", {"class": "history", id: "d-history"}, c[15].map(function (h, k) {
        const prev = k > 0 ? c[15][k - 1] : null;
        const changed = prev !== null && (prev[1] !== h[1] || h[2] === 1);
        const run = D.runs[h[0]];
        return el("li", changed ? {"class": "chg"} : {}, [run[2] + " " + run[0] + ": ",
          el("span", {"class": "badge " + CLS[D.outcomes[h[1]]]}, [D.outcomes[h[1]]]),
          changed ? (prev[1] !== h[1] ? " changed" : " observation changed") : ""]);
      }));
    }
    let nightly = null;
    if (c[17]) {  // the series' last runs from `kcompat history` (--store or --history)
      nightly = el("ol", {"class": "history", id: "d-nightly"}, c[17].map(function (h) {
        return el("li", h[4] ? {"class": "chg"} : {}, [h[2] + " " + h[1] + ": ",
          el("span", {"class": "badge " + (CLS[D.outcomes[h[0]]] || "")}, [D.outcomes[h[0]] || "?"]),
          h[3] ? " " + h[3] : "", h[5] ? el("span", {"class": "held"}, [" · " + h[5]]) : ""]);
      }));
    }
    // replaceChildren would print a null child as the text "null": drop the parts this cell lacks.
    aside.replaceChildren.apply(aside, [
      el("button", {"class": "close", title: "close (Esc)", id: "d-close"}, ["×"]),
      el("h3", {id: "d-cell"}, [cellId(c)]),
      el("p", {}, [el("span", {"class": "badge " + CLS[outcome], id: "d-outcome"}, [outcome]), " ",
        limitText(c) || "", c[18] && c[18][2] ? el("span", {id: "d-held"}, [" · intermittent, " + heldText(c[18])]) : null,
        deadlineText(observed) ? el("span", {id: "d-deadline"}, [" · " + deadlineText(observed)]) : null,
        c[16] ? " · changed since the previous run" : ""]),
      c[12] ? el("p", {id: "d-reason"}, [c[12]]) : null,
      el("h4", {}, [saysHeading(documented)]),
      decided ? el("p", {"class": "src", id: "d-decided"}, [decided]) : null,
      quotes.length ? el("div", {id: "d-quotes"}, quotes) : el("p", {"class": "empty"}, ["no quote recorded"]),
      whose,
      el("h4", {}, ["Documented vs observed"]), compare(documented, observed, differences)
    ].concat(observations(c), [
      facts,
      el("h4", {}, ["Reproduce this cell"]), el("pre", {"class": "cmd", id: "d-repro"}, [repro(c)]),
      history ? el("h4", {}, ["History"]) : null, history,
      nightly ? el("h4", {id: "d-series"}, ["Nightly history of " + D.series[cellId(c)]]) : null, nightly
    ]).filter(function (child) { return child !== null; }));
    aside.hidden = false;
    document.getElementById("d-close").addEventListener("click", close);
    if (selected) selected.classList.remove("sel");
    selected = tds[i]; selected.classList.add("sel");
  }
  function close() { aside.hidden = true; if (selected) selected.classList.remove("sel"); selected = null; }
  document.getElementById("matrix").addEventListener("click", function (event) {
    const td = event.target.closest("td");
    const i = td ? cellOf.get(td) : undefined;
    if (i !== undefined) show(i);
  });
  document.getElementById("matrix").addEventListener("mouseover", function (event) {
    const td = event.target.closest("td");
    const i = td ? cellOf.get(td) : undefined;
    if (i !== undefined && !td.title) {
      const o = D.cells[i][18];
      const deadline = deadlineText(V[D.cells[i][10]] || {});
      td.title = cellId(D.cells[i]) + ": " + D.outcomes[D.cells[i][3]] + (o ? (o[2] ? ", intermittent, " : ", steady, ") + heldText(o) : "") +
        (deadline ? ", " + deadline : "");
    }
  });
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") close(); });
  // The server rendered the unfiltered counts; filter only when the browser restored a form state.
  if (fKip.value || fClient.value || fOut.some(function (b) { return !b.checked; })) apply();
})();
