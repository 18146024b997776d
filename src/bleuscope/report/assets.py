"""The page's style sheet and script, inlined into every report (no external resource, no web font).

The script only ever puts user text into the page with ``textContent`` / text nodes (never ``innerHTML``),
so a hypothesis holding markup stays text. Its data comes from the ``application/json`` block that
:mod:`bleuscope.report.render` writes with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped.
"""

CSS = """
:root{--fg:#1d1d1f;--muted:#666;--line:#ddd;--bg:#fff;--alt:#f7f7f8;--m1:#fdf0b3;--m2:#f9dc78;--m3:#f2c04b;
--m4:#e49b22}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);
background:var(--bg);margin:0 auto;max-width:1400px;padding:12px 20px 60px}
h1{font-size:22px;margin:8px 0 2px}h2{font-size:18px;margin:28px 0 6px;border-bottom:1px solid var(--line);
padding-bottom:3px}h3{font-size:15px;margin:16px 0 4px}
p.note,.muted{color:var(--muted);font-size:12.5px;margin:4px 0}
code,.sig{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.sig{background:var(--alt);padding:4px 8px;border-radius:4px;display:inline-block;word-break:break-all}
nav a{margin-right:12px;font-size:13px}
table{border-collapse:collapse;font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:3px 7px;text-align:left;vertical-align:top}
th{background:var(--alt);font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.cluster-start td{border-top:2px solid #999}
#systems-table td:nth-child(3){white-space:nowrap}
.pmatrix td{text-align:center;font-size:12px;white-space:nowrap;min-width:64px}
.pmatrix td.sig-better{background:#d7ecd9}.pmatrix td.sig-worse{background:#f6d5d3}
.pmatrix td.diag{background:#eee}
.charts{display:flex;flex-wrap:wrap;gap:10px 18px;align-items:flex-start}
svg.chart{background:#fff;overflow:visible}
svg text{font:11px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:#333}
svg text.title{font-weight:600;font-size:12px}
svg .grid{stroke:#e6e6e6;stroke-width:1}svg .axisline{stroke:#999}
svg .mean{stroke:#222;stroke-dasharray:3 2}svg .diag{stroke:#999;stroke-dasharray:4 3}
svg .dots{stroke:#4e79a7;stroke-opacity:.45;stroke-width:5;stroke-linecap:round;fill:none}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12.5px;margin:4px 0}
.legend i{display:inline-block;width:11px;height:11px;margin-right:5px;vertical-align:-1px;border-radius:2px}
.m1{background:var(--m1)}.m2{background:var(--m2)}.m3{background:var(--m3)}.m4{background:var(--m4)}
.ctl{border:1px solid #c33;color:#c33;border-radius:2px;font-size:11px;padding:0 1px;margin:0 1px}
.tok{border-bottom:1px dotted #888}
.controls{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:8px 0;font-size:13px}
.controls input[type=search]{width:260px;padding:3px 6px}
#segments{width:100%}#segments td.text{min-width:180px;max-width:420px;word-wrap:break-word;
overflow-wrap:anywhere}
#segments th[data-key]{cursor:pointer;user-select:none}
#segments th[aria-sort=ascending]::after{content:" \\25B2"}#segments th[aria-sort=descending]::after{content:" \\25BC"}
td.pos{color:#1a7f37}td.neg{color:#c62828}
details>summary{cursor:pointer;color:#345;font-size:12px}
.allsys{margin:4px 0 0;padding:0;list-style:none}.allsys li{margin:2px 0}
.allsys b{font-weight:600}
td hr{border:0;border-top:1px dashed #ccc;margin:3px 0}
.js-only{display:none}.has-js .js-only{display:revert}.has-js .no-js{display:none}
.wl{display:grid;grid-template-columns:1fr 1fr;gap:16px}.wl table{width:100%}
.wl td.text{overflow-wrap:anywhere}
@media (max-width:900px){.wl{grid-template-columns:1fr}}
"""

JS = r"""
(function () {
  "use strict";
  document.documentElement.className += " has-js";
  var D = JSON.parse(document.getElementById("report-data").textContent);
  var K = D.systems.length, N = D.shown;
  var st = {a: D.pair[0], b: D.pair[1], key: "idx", dir: 1, q: "", diff: "all", page: 0};
  var CTL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  var hay = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { addText(e, String(text)); }
    return e;
  }
  function hex(c) { return "U+" + ("000" + c.toString(16).toUpperCase()).slice(-4); }
  function addText(parent, s) {
    var last = 0, m;
    CTL.lastIndex = 0;
    while ((m = CTL.exec(s)) !== null) {
      if (m.index > last) { parent.appendChild(document.createTextNode(s.slice(last, m.index))); }
      var c = m[0].charCodeAt(0), sp = document.createElement("span");
      sp.className = "ctl";
      sp.title = hex(c);
      sp.textContent = c < 32 ? String.fromCharCode(0x2400 + c) : c === 127 ? "\u2421" : hex(c);
      parent.appendChild(sp);
      last = m.index + m[0].length;
    }
    if (last < s.length) { parent.appendChild(document.createTextNode(s.slice(last))); }
  }
  function pieces(parent, h) {
    var p = h, box = parent;
    if (h !== null && typeof h === "object" && !Array.isArray(h)) {
      p = h.p;
      box = el("span", "tok");
      box.title = "shown tokenized: the tokens could not be placed in the original text";
      parent.appendChild(box);
    }
    if (typeof p === "string") { addText(box, p); return; }
    for (var i = 0; i < p.length; i += 2) {
      if (p[i + 1] > 0) { box.appendChild(el("span", "m" + Math.min(4, p[i + 1]), p[i])); }
      else { addText(box, p[i]); }
    }
  }
  function plain(h) {
    if (h !== null && typeof h === "object" && !Array.isArray(h)) { h = h.p; }
    if (typeof h === "string") { return h; }
    var s = "";
    for (var i = 0; i < h.length; i += 2) { s += h[i]; }
    return s;
  }
  function score(k, i) { return D.score[k][i]; }
  function f1(x) { return x.toFixed(1); }
  function fd(x) { return (x > 0 ? "+" : "") + x.toFixed(1); }

  function haystack() {
    if (hay) { return hay; }
    hay = new Array(N);
    for (var i = 0; i < N; i++) {
      var parts = [D.src ? D.src[i] : ""];
      for (var r = 0; r < D.refs.length; r++) { if (D.refs[r][i] !== null) { parts.push(D.refs[r][i]); } }
      for (var k = 0; k < K; k++) { parts.push(plain(D.hyp[k][i])); }
      hay[i] = parts.join("\n").toLowerCase();
    }
    return hay;
  }
  function rows() {
    var out = [], q = st.q, h = q ? haystack() : null;
    for (var i = 0; i < N; i++) {
      if (q && h[i].indexOf(q) < 0) { continue; }
      var d = score(st.b, i) - score(st.a, i);
      if (st.diff === "b" && !(d > 0)) { continue; }
      if (st.diff === "a" && !(d < 0)) { continue; }
      if (st.diff === "eq" && d !== 0) { continue; }
      out.push(i);
    }
    var key = st.key, dir = st.dir;
    function val(i) {
      if (key === "idx") { return i; }
      if (key === "len") { return D.len[i]; }
      if (key === "a") { return score(st.a, i); }
      if (key === "b") { return score(st.b, i); }
      return score(st.b, i) - score(st.a, i);
    }
    out.sort(function (x, y) { var d = val(x) - val(y); return d !== 0 ? dir * d : x - y; });
    return out;
  }
  function refCell(i) {
    var td = el("td", "text");
    var first = true;
    for (var r = 0; r < D.refs.length; r++) {
      if (D.refs[r][i] === null) { continue; }
      if (!first) { td.appendChild(el("hr")); }
      if (D.refs.length > 1) { td.appendChild(el("b", null, D.refNames[r] + ": ")); }
      addText(td, D.refs[r][i]);
      first = false;
    }
    return td;
  }
  function allSystems(i) {
    var td = el("td"), det = el("details"), ul = el("ul", "allsys");
    det.appendChild(el("summary", null, "all " + K));
    for (var k = 0; k < K; k++) {
      var li = el("li");
      li.appendChild(el("b", null, D.systems[k] + " (" + f1(score(k, i)) + "): "));
      pieces(li, D.hyp[k][i]);
      ul.appendChild(li);
    }
    det.appendChild(ul);
    td.appendChild(det);
    return td;
  }
  function segRow(i) {
    var tr = el("tr"), d = score(st.b, i) - score(st.a, i), td;
    tr.setAttribute("data-seg", String(i + 1));
    tr.appendChild(el("td", "num", String(i + 1)));
    tr.appendChild(el("td", "num", String(D.len[i])));
    if (D.src) { tr.appendChild(el("td", "text", D.src[i])); }
    tr.appendChild(refCell(i));
    td = el("td", "text"); pieces(td, D.hyp[st.a][i]); tr.appendChild(td);
    tr.appendChild(el("td", "num score-a", f1(score(st.a, i))));
    td = el("td", "text"); pieces(td, D.hyp[st.b][i]); tr.appendChild(td);
    tr.appendChild(el("td", "num score-b", f1(score(st.b, i))));
    tr.appendChild(el("td", "num delta " + (d > 0 ? "pos" : d < 0 ? "neg" : ""), fd(d)));
    if (K > 2) { tr.appendChild(allSystems(i)); }
    return tr;
  }
  function renderTable() {
    var r = rows(), size = D.pageSize, pages = Math.max(1, Math.ceil(r.length / size));
    if (st.page >= pages) { st.page = pages - 1; }
    var from = st.page * size, to = Math.min(r.length, from + size);
    var body = document.getElementById("seg-body"), frag = document.createDocumentFragment();
    for (var j = from; j < to; j++) { frag.appendChild(segRow(r[j])); }
    body.textContent = "";
    body.appendChild(frag);
    var info = r.length ? (from + 1) + "\u2013" + to + " of " + r.length : "no segment matches";
    if (r.length !== N) { info += " (filtered from " + N + ")"; }
    document.getElementById("page-info").textContent = info;
    document.getElementById("prev").disabled = st.page === 0;
    document.getElementById("next").disabled = st.page >= pages - 1;
    var ths = document.querySelectorAll("#segments th[data-key]");
    for (var t = 0; t < ths.length; t++) {
      var k = ths[t].getAttribute("data-key");
      if (k === st.key) { ths[t].setAttribute("aria-sort", st.dir > 0 ? "ascending" : "descending"); }
      else { ths[t].removeAttribute("aria-sort"); }
    }
  }
  function setNames() {
    var a = D.systems[st.a], b = D.systems[st.b], list = document.querySelectorAll(".name-a");
    for (var i = 0; i < list.length; i++) { list[i].textContent = a; }
    list = document.querySelectorAll(".name-b");
    for (i = 0; i < list.length; i++) { list[i].textContent = b; }
  }
  function renderScatter() {
    var svg = document.getElementById("scatter-svg");
    if (!svg || !D.scatter) { return; }
    var g = D.scatter, d = [], xa = D.score[st.a], yb = D.score[st.b];
    for (var i = 0; i < xa.length; i++) {
      d.push("M" + (g.left + g.plot * xa[i] / 100).toFixed(1) + " " + (g.y0 - g.plot * yb[i] / 100).toFixed(1) + "h0");
    }
    svg.querySelector(".dots").setAttribute("d", d.join(""));
    document.getElementById("scatter-x").textContent = D.systems[st.a];
    document.getElementById("scatter-y").textContent = D.systems[st.b];
  }
  function wlRows(id, list) {
    var body = document.getElementById(id);
    if (!body) { return; }
    body.textContent = "";
    if (!list.length) {
      var tr0 = el("tr"), td0 = el("td", "muted", "none");
      td0.colSpan = 5; tr0.appendChild(td0); body.appendChild(tr0);
      return;
    }
    for (var j = 0; j < list.length; j++) {
      var i = list[j], tr = el("tr"), d = score(st.b, i) - score(st.a, i), td;
      tr.appendChild(el("td", "num", String(i + 1)));
      tr.appendChild(el("td", "num delta " + (d > 0 ? "pos" : "neg"), fd(d)));
      td = el("td", "text"); pieces(td, D.hyp[st.a][i]); tr.appendChild(td);
      td = el("td", "text"); pieces(td, D.hyp[st.b][i]); tr.appendChild(td);
      var r0 = 0; while (r0 < D.refs.length - 1 && D.refs[r0][i] === null) { r0++; }
      tr.appendChild(el("td", "text", D.refs[r0][i]));
      body.appendChild(tr);
    }
  }
  function renderWinLoss() {
    var idx = [], i;
    for (i = 0; i < N; i++) { idx.push(i); }
    function delta(i) { return score(st.b, i) - score(st.a, i); }
    var wins = idx.filter(function (i) { return delta(i) > 0; })
      .sort(function (x, y) { return (delta(y) - delta(x)) || (x - y); }).slice(0, D.top);
    var losses = idx.filter(function (i) { return delta(i) < 0; })
      .sort(function (x, y) { return (delta(x) - delta(y)) || (x - y); }).slice(0, D.top);
    wlRows("wins-body", wins);
    wlRows("losses-body", losses);
  }
  function renderPair() { setNames(); renderScatter(); renderWinLoss(); renderTable(); }

  var ths = document.querySelectorAll("#segments th[data-key]");
  for (var t = 0; t < ths.length; t++) {
    ths[t].addEventListener("click", function () {
      var k = this.getAttribute("data-key");
      if (st.key === k) { st.dir = -st.dir; } else { st.key = k; st.dir = 1; }
      st.page = 0;
      renderTable();
    });
  }
  document.getElementById("filter").addEventListener("input", function () {
    st.q = this.value.toLowerCase(); st.page = 0; renderTable();
  });
  document.getElementById("diff").addEventListener("change", function () {
    st.diff = this.value; st.page = 0; renderTable();
  });
  document.getElementById("prev").addEventListener("click", function () { st.page--; renderTable(); });
  document.getElementById("next").addEventListener("click", function () { st.page++; renderTable(); });
  var sa = document.getElementById("sys-a"), sb = document.getElementById("sys-b");
  if (sa && sb) {
    sa.addEventListener("change", function () { st.a = +this.value; renderPair(); });
    sb.addEventListener("change", function () { st.b = +this.value; renderPair(); });
  }
  renderPair();
})();
"""
