"""The page's style sheet and script, inlined into every report (no external resource, no web font).

The script only ever puts user text into the page with ``textContent`` / text nodes (never ``innerHTML``),
so a hypothesis holding markup stays text; a user's regular expression only ever runs in ``RegExp`` (an
invalid one is reported, not thrown). Its data comes from the ``application/json`` block that
:mod:`bleuscope.report.render` writes with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped.
"""

CSS = """
:root{--fg:#1d1d1f;--muted:#5f6368;--line:#ddd;--bg:#fff;--alt:#f4f4f6;--m1:#fdf0b3;--m2:#f9dc78;--m3:#f2c04b;
--m4:#e49b22;--good:#d7ecd9;--bad:#f6d5d3;--goodfg:#1a7f37;--badfg:#c62828;--heat:78,121,167;--link:#0b57d0;
--onlya:#fbd3d0;--onlyb:#cdebd3;--mark:#ffe066;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--muted:#a0a4a8;--line:#3a3d41;--bg:#16181b;--alt:#23262a;
--m1:#4d4420;--m2:#6b5a1c;--m3:#8a6a12;--m4:#a8700a;--good:#1e3d26;--bad:#4a2222;--goodfg:#6fd38a;
--badfg:#ff8a80;--heat:120,170,230;--link:#8ab4f8;--onlya:#5c2b28;--onlyb:#1f4a2b;--mark:#7a6410}}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);
background:var(--bg);margin:0 auto;max-width:1400px;padding:12px 20px 60px;overflow-wrap:break-word}
a{color:var(--link)}
h1{font-size:22px;margin:8px 0 2px}h2{font-size:18px;margin:28px 0 6px;border-bottom:1px solid var(--line);
padding-bottom:3px}h3{font-size:15px;margin:16px 0 4px}h4{font-size:13.5px;margin:12px 0 2px}
p.note,.muted{color:var(--muted);font-size:12.5px;margin:4px 0}
code,.sig,.hash,.cmd{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.sig,.cmd{background:var(--alt);padding:2px 6px;border-radius:4px;display:inline-block;word-break:break-all}
.hash{word-break:break-all}.path{overflow-wrap:anywhere}
nav{display:flex;flex-wrap:wrap;gap:4px 12px;margin:6px 0}nav a{font-size:13px}
.scroll{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;font-size:13px}
th,td{border-bottom:1px solid var(--line);padding:3px 7px;text-align:left;vertical-align:top}
th{background:var(--alt);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.cluster-start td{border-top:2px solid var(--muted)}
table.iv td.num .muted{display:block;font-size:11.5px}table.iv th{overflow-wrap:anywhere;min-width:4em}
.pmatrix td{text-align:center;font-size:12px;white-space:nowrap;min-width:64px}
.pmatrix td.sig-better{background:var(--good);color:var(--goodfg)}
.pmatrix td.sig-worse{background:var(--bad);color:var(--badfg)}
.pmatrix td.diag{background:var(--alt)}.pmatrix .p{font-size:11px;color:var(--muted)}
.clusters{margin:4px 0;padding-left:22px;font-size:13px}
.charts{display:flex;flex-wrap:wrap;gap:10px 18px;align-items:flex-start}.charts>div{min-width:0;max-width:100%}
.chart-title{font-weight:600;font-size:12.5px;margin:6px 0 0}
svg.chart{overflow:visible;max-width:100%;height:auto}
.chartscroll{max-width:100%;overflow-x:auto}.chartscroll svg.chart{max-width:none}
#scatter-svg:focus-visible{outline:2px solid var(--link)}
svg text{font:11px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:var(--fg)}
svg text.title{font-weight:600;font-size:12px}
svg .grid{stroke:var(--line);stroke-width:1}svg .axisline{stroke:var(--muted)}svg .zero{stroke:var(--fg);stroke-width:1.2}
svg .diag{stroke:var(--muted);stroke-dasharray:4 3}
svg .dots{stroke:#0067a5;stroke-opacity:.45;stroke-width:5;stroke-linecap:round;fill:none}
svg .pick{fill:none;stroke:#be0032;stroke-width:2}
svg.sw{vertical-align:-1px;margin-right:4px}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12.5px;margin:4px 0}
.m1{background:var(--m1)}.m2{background:var(--m2)}.m3{background:var(--m3)}.m4{background:var(--m4)}
.m1,.m2,.m3,.m4{border-bottom:1px solid transparent}
.only-a{background:var(--onlya);border-bottom:2px solid var(--badfg)}
.only-b{background:var(--onlyb);border-bottom:2px solid var(--goodfg)}
.rm{border-bottom:2px solid var(--m4)}
mark{background:var(--mark);color:inherit;outline:1px solid var(--fg)}
.ctl{border:1px solid #c33;color:#c33;border-radius:2px;font-size:11px;padding:0 1px;margin:0 1px}
.tok{border-bottom:1px dotted var(--muted)}
.badge{font-size:10.5px;border:1px solid var(--muted);border-radius:3px;padding:0 3px;margin-left:4px;
white-space:nowrap}
.ref+.ref{border-top:1px dashed var(--line);margin-top:3px;padding-top:3px}
.controls{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:8px 0;font-size:13px}
.controls input[type=search]{width:260px;max-width:100%;padding:3px 6px}
.controls select{max-width:100%}
.warnings{border:2px solid #b26a00;border-radius:6px;padding:6px 12px;margin:10px 0;font-size:13px}
.warnings ul{margin:4px 0;padding-left:20px}
#segments{width:100%}td.text{min-width:180px;max-width:420px;overflow-wrap:anywhere}
.cell{max-height:18em;overflow-y:auto}
/* each text takes its own direction: Arabic and Hebrew segments read right to left on this left-to-right page */
.cell,.ref,.allsys li{unicode-bidi:plaintext;text-align:start}
th[data-key],th[data-sort]{cursor:pointer}
th button.sort{font:inherit;font-weight:600;background:none;border:0;padding:0;color:inherit;cursor:pointer}
th button.sort:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible{outline:2px solid var(--link)}
th[aria-sort=ascending] button.sort::after{content:" \\25B2"}th[aria-sort=descending] button.sort::after{content:" \\25BC"}
td.pos{color:var(--goodfg)}td.neg{color:var(--badfg)}
td.heat{background:rgba(var(--heat),var(--h))}
td.ng button{font:inherit;background:none;border:0;padding:0;color:var(--link);cursor:pointer;text-align:left;
text-decoration:underline dotted}
details>summary{cursor:pointer;font-size:12px}
.allsys{margin:4px 0 0;padding:0;list-style:none}.allsys li{margin:2px 0}.allsys b{font-weight:600}
.export{font-size:12px;color:var(--muted);display:none}.has-js .export{display:inline-block;margin:2px 0}
.export button{font-size:11.5px;padding:0 6px}
.subset button{margin-left:6px}
.controls input[type=number]{width:5em}
button.star{font-size:14px;line-height:1;background:none;border:0;padding:0 3px 0 0;cursor:pointer;color:#b26a00}
a.permalink{color:inherit}
.js-only{display:none}.has-js .js-only{display:revert}.has-js .no-js{display:none}
.wl{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}.wl table{width:100%}
@media (max-width:900px){.wl{grid-template-columns:minmax(0,1fr)}}
@media (max-width:600px){body{padding:8px 10px 40px}td.text{min-width:140px}}
@media print{
 @page{margin:12mm}
 body{max-width:none;padding:0;font-size:9pt;color:#000;background:#fff}
 nav,.controls,.export,.js-only,button:not(.sort):not(.ngram),select,input,.no-js{display:none!important}
 th button.sort::after{content:none!important}
 .num .muted{display:block}
 .scroll{overflow:visible}
 .wl{grid-template-columns:minmax(0,1fr)}
 table{font-size:7.5pt;width:100%;page-break-inside:auto}tr{page-break-inside:avoid}
 th,td{padding:1px 3px;white-space:normal!important;color:#000}
 th{overflow-wrap:anywhere}td.num{overflow-wrap:normal}
 table.iv td.num .muted{font-size:6.5pt}
 td.ng button{display:inline!important;font:inherit;color:#000;text-decoration:none;padding:0;border:0;background:none}
 .sig,.cmd,.hash{font-size:7pt;background:none}
 .cell{max-height:none;overflow:visible}
 td.text{min-width:0;max-width:none}
 .m1{border-bottom:1px dotted #000}.m2{border-bottom:1px dashed #000}.m3{border-bottom:1.5px solid #000}
 .m4{border-bottom:2.5px solid #000}
 .only-a{text-decoration:line-through}.only-b{border-bottom:2px solid #000}
 .pmatrix td.sig-better,.pmatrix td.sig-worse{font-weight:700;border:1.5px solid #000}
 svg text{fill:#000}
 h2{page-break-after:avoid}section{page-break-inside:auto}
 details:not([open])>*:not(summary){display:none}
}
"""

JS = r"""
(function () {
  "use strict";
  document.documentElement.className += " has-js";
  var D = JSON.parse(document.getElementById("report-data").textContent);
  var K = D.systems.length, N = D.shown;
  var st = {a: D.pair[0], b: D.pair[1], m: 0, key: "idx", dir: 1, q: "", field: "all", re: false, diff: "all",
            page: 0, view: "match", ng: "", seg: -1, star: {}, lk: "ref", lmin: null, lmax: null, dmin: null,
            sec: "", ngCollapse: false, ngWords: false, ngKind: "m"};
  var CTL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  var hay = {}, hl = null, badRe = false;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { addText(e, String(text), null); }
    return e;
  }
  function hex(c) { return "U+" + ("000" + c.toString(16).toUpperCase()).slice(-4); }
  function addPlain(parent, s) {
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
  function addText(parent, s, re) {
    if (!re || !s) { addPlain(parent, s); return; }
    var last = 0, m, guard = 0;
    re.lastIndex = 0;
    while ((m = re.exec(s)) !== null && guard++ < 10000) {
      if (m[0].length === 0) { re.lastIndex++; continue; }
      if (m.index > last) { addPlain(parent, s.slice(last, m.index)); }
      var mk = document.createElement("mark");
      addPlain(mk, m[0]);
      parent.appendChild(mk);
      last = m.index + m[0].length;
    }
    if (last < s.length) { addPlain(parent, s.slice(last)); }
  }
  function plain(h) {
    if (h !== null && typeof h === "object" && !Array.isArray(h)) { h = h.p; }
    if (typeof h === "string") { return h; }
    var s = "";
    for (var i = 0; i < h.length; i += 2) { s += h[i]; }
    return s;
  }
  function pieces(parent, h, re) {
    var p = h, box = parent;
    if (h !== null && typeof h === "object" && !Array.isArray(h)) {
      p = h.p;
      box = el("span", "tok");
      box.title = "shown tokenized: the tokens could not be placed in the original text";
      parent.appendChild(box);
    }
    if (typeof p === "string") { addText(box, p, re); return; }
    for (var i = 0; i < p.length; i += 2) {
      if (p[i + 1] > 0) { var sp = el("span", "m" + Math.min(4, p[i + 1])); addText(sp, p[i], re); box.appendChild(sp); }
      else { addText(box, p[i], re); }
    }
  }
  function words(s) { return s.split(/(\s+)/); }
  function diffMarks(x, y) {
    // which words of x are not in a longest common subsequence with y (word level)
    var wx = words(x).filter(function (w, i) { return i % 2 === 0 && w; });
    var wy = words(y).filter(function (w, i) { return i % 2 === 0 && w; });
    var keep = new Array(wx.length), i, j;
    if (wx.length * wy.length > 250000) {
      var bag = {};
      wy.forEach(function (w) { bag[w] = (bag[w] || 0) + 1; });
      for (i = 0; i < wx.length; i++) { keep[i] = bag[wx[i]] > 0; if (keep[i]) { bag[wx[i]]--; } }
      return keep;
    }
    var L = [];
    for (i = 0; i <= wx.length; i++) { L.push(new Int32Array(wy.length + 1)); }
    for (i = wx.length - 1; i >= 0; i--) {
      for (j = wy.length - 1; j >= 0; j--) {
        L[i][j] = wx[i] === wy[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
      }
    }
    i = 0; j = 0;
    while (i < wx.length && j < wy.length) {
      if (wx[i] === wy[j]) { keep[i] = true; i++; j++; }
      else if (L[i + 1][j] >= L[i][j + 1]) { keep[i] = false; i++; }
      else { j++; }
    }
    return keep;
  }
  function diffText(parent, x, y, cls, re) {
    var keep = diffMarks(x, y), parts = words(x), w = 0;
    for (var i = 0; i < parts.length; i++) {
      if (i % 2 === 1 || !parts[i]) { addText(parent, parts[i], re); continue; }
      if (keep[w]) { addText(parent, parts[i], re); }
      else { var sp = el("span", cls); addText(sp, parts[i], re); parent.appendChild(sp); }
      w++;
    }
  }
  function score(k, i) { return D.score[st.m][k][i] / 100; }  // hundredths in the data
  function better(i) { var d = score(st.b, i) - score(st.a, i); return D.higher[st.m] ? d : -d; }
  function f1(x) { return x.toFixed(1); }
  function fd(x) { return (x > 0 ? "+" : "") + x.toFixed(1); }

  // ---- filtering ----
  function fieldText(i, f) {
    var parts = [];
    if ((f === "all" || f === "src") && D.src) { parts.push(D.src[i]); }
    if (f === "all" || f === "ref") {
      for (var r = 0; r < D.refs.length; r++) { if (D.refs[r][i] !== null) { parts.push(D.refs[r][i]); } }
    }
    if (f === "a") { parts.push(plain(D.hyp[st.a][i])); }
    if (f === "b") { parts.push(plain(D.hyp[st.b][i])); }
    if (f === "all" || f === "sys") { for (var k = 0; k < K; k++) { parts.push(plain(D.hyp[k][i])); } }
    return parts.join("\n");
  }
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function makeRe() {
    badRe = false;
    if (!st.q) { return null; }
    try { return new RegExp(st.re ? st.q : escapeRe(st.q), "gi"); }
    catch (e) { badRe = true; return null; }
  }
  function subset() {
    if (st.seg >= 0 && st.seg < N) { return {label: "segment " + (st.seg + 1), list: [st.seg]}; }
    if (!st.ng) { return null; }
    var r = ngramRow(st.ng);
    if (!r) { return null; }
    var list = r[7].filter(function (i) { return i < N; });
    return {label: "n-gram \u201c" + r[0] + "\u201d", list: list,
            note: list.length < r[7].length ? " of " + r[7].length + "; the page holds the first " + N + " segments" : ""};
  }
  function segLength(i) {
    if (st.lk === "src" && D.src) { var t = D.src[i].trim(); return t ? t.split(/\s+/).length : 0; }
    return D.len[i];
  }
  // the clicked n-gram as a pattern over the original text (its tokens, any spacing between them)
  // "kind:pair.side.index" (kind m, o or u) -> the n-gram's row
  function ngramRow(ng) {
    var kind = "m", i = ng.indexOf(":");
    if (i >= 0) { kind = ng.slice(0, i); ng = ng.slice(i + 1); }
    var p = ng.split("."), rows = (D.ngrams[kind] || {})[p[0]];
    return rows && rows[+p[1]] && rows[+p[1]][+p[2]] ? rows[+p[1]][+p[2]] : null;
  }
  function ngramRe() {
    var r = ngramRow(st.ng);
    if (!r) { return null; }
    var tokens = r[0].split(" ").map(escapeRe);
    try { return new RegExp(tokens.join("\\s*"), "g"); } catch (e) { return null; }
  }
  function rows() {
    var out = [], re = makeRe(), sub = subset(), cand = [], i;
    if (sub) { cand = sub.list.slice(); } else { for (i = 0; i < N; i++) { cand.push(i); } }
    for (var c = 0; c < cand.length; c++) {
      i = cand[c];
      if (re) { re.lastIndex = 0; if (!re.test(fieldText(i, st.field))) { continue; } }
      if (badRe) { continue; }
      var d = better(i);
      if (st.diff === "b" && !(d > 0)) { continue; }
      if (st.diff === "a" && !(d < 0)) { continue; }
      if (st.diff === "eq" && d !== 0) { continue; }
      if (st.diff === "star" && !st.star[i]) { continue; }
      if (st.lmin !== null || st.lmax !== null) {
        var len = segLength(i);
        if ((st.lmin !== null && len < st.lmin) || (st.lmax !== null && len > st.lmax)) { continue; }
      }
      if (st.dmin !== null && !(Math.abs(d) >= st.dmin)) { continue; }
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

  // ---- cells ----
  function hypCell(k, other, i, cls, re) {
    var td = el("td", "text"), box = el("div", "cell");
    if (st.view === "diff" && other !== null) { diffText(box, plain(D.hyp[k][i]), plain(D.hyp[other][i]), cls, re); }
    else { pieces(box, D.hyp[k][i], re); }
    td.appendChild(box);
    return td;
  }
  function refWords(box, s, hyp, re) {
    var bag = {}, parts = words(s);
    words(hyp).forEach(function (w, j) { if (j % 2 === 0 && w) { bag[w] = (bag[w] || 0) + 1; } });
    for (var j = 0; j < parts.length; j++) {
      var w = parts[j];
      if (j % 2 === 0 && w && bag[w] > 0) { bag[w]--; var sp = el("span", "rm"); addText(sp, w, re); box.appendChild(sp); }
      else { addText(box, w, re); }
    }
  }
  function refCell(i, re) {
    var td = el("td", "text"), box = el("div", "cell");
    for (var r = 0; r < D.refs.length; r++) {
      if (D.refs[r][i] === null) { continue; }
      var div = el("div", "ref"), bestA = D.best[st.a][i] === r, bestB = D.best[st.b][i] === r;
      if (D.refs.length > 1) {
        div.appendChild(el("b", null, D.refNames[r]));
        if (bestA) { var ba = el("span", "badge", "best for A"); ba.title = "the reference A matches best"; div.appendChild(ba); }
        if (bestB) { var bb = el("span", "badge", "best for B"); bb.title = "the reference B matches best"; div.appendChild(bb); }
        div.appendChild(document.createTextNode(": "));
      }
      if (bestB || D.refs.length === 1) { refWords(div, D.refs[r][i], plain(D.hyp[st.b][i]), re); }
      else if (bestA) { refWords(div, D.refs[r][i], plain(D.hyp[st.a][i]), re); }
      else { addText(div, D.refs[r][i], re); }
      box.appendChild(div);
    }
    td.appendChild(box);
    return td;
  }
  function allSystems(i, re) {
    var td = el("td"), det = el("details"), ul = el("ul", "allsys");
    det.appendChild(el("summary", null, "all " + K));
    for (var k = 0; k < K; k++) {
      var li = el("li");
      li.appendChild(el("b", null, D.systems[k] + " (" + f1(score(k, i)) + "): "));
      pieces(li, D.hyp[k][i], st.field === "sys" || st.field === "all" ? re : null);
      ul.appendChild(li);
    }
    det.appendChild(ul);
    td.appendChild(det);
    return td;
  }
  function segRow(i, re) {
    var tr = el("tr"), d = score(st.b, i) - score(st.a, i), f = st.field;
    function on(x) { return f === "all" || f === x || (f === "sys" && (x === "a" || x === "b")) ? re : null; }
    tr.setAttribute("data-seg", String(i + 1));
    var first = el("td", "num"), link = el("a", "permalink", String(i + 1)), star = el("button", "star");
    link.href = "#" + stateHash({seg: i, sec: "segment-table"});
    link.title = "a link to this segment (copy it to share)";
    link.setAttribute("aria-label", "link to segment " + (i + 1));
    star.type = "button";
    star.textContent = st.star[i] ? "\u2605" : "\u2606";
    star.setAttribute("aria-pressed", st.star[i] ? "true" : "false");
    star.setAttribute("aria-label", "star segment " + (i + 1));
    star.addEventListener("click", function () {
      if (st.star[i]) { delete st.star[i]; } else { st.star[i] = true; }
      star.textContent = st.star[i] ? "\u2605" : "\u2606";
      star.setAttribute("aria-pressed", st.star[i] ? "true" : "false");
      starInfo(); saveHash();
    });
    first.appendChild(star); first.appendChild(link);
    tr.appendChild(first);
    tr.appendChild(el("td", "num", String(D.len[i])));
    if (D.src) { var ts = el("td", "text"), bs = el("div", "cell"); addText(bs, D.src[i], on("src")); ts.appendChild(bs); tr.appendChild(ts); }
    tr.appendChild(refCell(i, on("ref")));
    tr.appendChild(hypCell(st.a, st.b, i, "only-a", on("a")));
    tr.appendChild(el("td", "num score-a", f1(score(st.a, i))));
    tr.appendChild(hypCell(st.b, st.a, i, "only-b", on("b")));
    tr.appendChild(el("td", "num score-b", f1(score(st.b, i))));
    tr.appendChild(el("td", "num delta " + (better(i) > 0 ? "pos" : better(i) < 0 ? "neg" : ""), fd(d)));
    if (K > 2) { tr.appendChild(allSystems(i, re)); }
    return tr;
  }
  function renderTable() {
    var r = rows(), size = D.pageSize, pages = Math.max(1, Math.ceil(r.length / size));
    if (st.page >= pages) { st.page = pages - 1; }
    if (st.page < 0) { st.page = 0; }
    var from = st.page * size, to = Math.min(r.length, from + size), re = badRe ? null : makeRe();
    if (!re && st.ng && !st.q) { re = ngramRe(); }  // the clicked n-gram marked where it occurs
    var body = $("seg-body"), frag = document.createDocumentFragment();
    for (var j = from; j < to; j++) { frag.appendChild(segRow(r[j], re)); }
    body.textContent = "";
    body.appendChild(frag);
    var info = badRe ? "invalid regular expression" :
      r.length ? (from + 1) + "\u2013" + to + " of " + r.length : "no segment matches";
    if (!badRe && r.length !== N) { info += " (filtered from " + N + ")"; }
    $("page-info").textContent = info;
    $("prev").disabled = st.page === 0;
    $("next").disabled = st.page >= pages - 1;
    var ths = document.querySelectorAll("#segments th[data-key]");
    for (var t = 0; t < ths.length; t++) {
      var k = ths[t].getAttribute("data-key");
      if (k === st.key) { ths[t].setAttribute("aria-sort", st.dir > 0 ? "ascending" : "descending"); }
      else { ths[t].removeAttribute("aria-sort"); }
    }
    var sub = subset(), box = $("subset");
    box.textContent = "";
    if (sub) {
      box.appendChild(el("span", null, "only " + sub.label + " (" + sub.list.length + (sub.note || "") + ")"));
      var clear = el("button", null, "show all");
      clear.type = "button";
      clear.addEventListener("click", function () { st.ng = ""; st.seg = -1; st.page = 0; update(); });
      box.appendChild(clear);
    }
    saveHash();
  }

  // ---- pair views ----
  function setNames() {
    var a = D.systems[st.a], b = D.systems[st.b], list = document.querySelectorAll(".name-a");
    for (var i = 0; i < list.length; i++) { list[i].textContent = a; }
    list = document.querySelectorAll(".name-b");
    for (i = 0; i < list.length; i++) { list[i].textContent = b; }
  }
  function clip(v) { return Math.max(0, Math.min(100, v)); }
  function renderScatter() {
    var svg = $("scatter-svg");
    if (!svg || !D.scatter) { return; }
    var g = D.scatter, d = [];
    for (var i = 0; i < N; i++) {
      d.push("M" + (g.left + g.plot * clip(score(st.a, i)) / 100).toFixed(1) + " " +
             (g.y0 - g.plot * clip(score(st.b, i)) / 100).toFixed(1) + "h0");
    }
    svg.querySelector(".dots").setAttribute("d", d.join(""));
    $("scatter-x").textContent = D.systems[st.a] + " (" + D.metrics[st.m] + ")";
    $("scatter-y").textContent = D.systems[st.b];
    var pick = svg.querySelector(".pick");
    if (st.seg >= 0 && st.seg < N) {
      if (!pick) {
        pick = document.createElementNS("http://www.w3.org/2000/svg", "circle");
        pick.setAttribute("class", "pick"); pick.setAttribute("r", "6"); svg.appendChild(pick);
      }
      pick.setAttribute("cx", (g.left + g.plot * clip(score(st.a, st.seg)) / 100).toFixed(1));
      pick.setAttribute("cy", (g.y0 - g.plot * clip(score(st.b, st.seg)) / 100).toFixed(1));
    } else if (pick) { pick.parentNode.removeChild(pick); }
  }
  function wlRows(id, list) {
    var body = $(id);
    if (!body) { return; }
    body.textContent = "";
    if (!list.length) {
      var tr0 = el("tr"), td0 = el("td", "muted", "none");
      td0.colSpan = 5; tr0.appendChild(td0); body.appendChild(tr0);
      return;
    }
    for (var j = 0; j < list.length; j++) {
      var i = list[j], tr = el("tr"), d = score(st.b, i) - score(st.a, i);
      tr.appendChild(el("td", "num", String(i + 1)));
      tr.appendChild(el("td", "num delta " + (better(i) > 0 ? "pos" : "neg"), fd(d)));
      tr.appendChild(hypCell(st.a, st.b, i, "only-a", null));
      tr.appendChild(hypCell(st.b, st.a, i, "only-b", null));
      tr.appendChild(refCell(i, null));
      body.appendChild(tr);
    }
  }
  function renderWinLoss() {
    var idx = [], i;
    for (i = 0; i < N; i++) { idx.push(i); }
    var wins = idx.filter(function (i) { return better(i) > 0; })
      .sort(function (x, y) { return (better(y) - better(x)) || (x - y); }).slice(0, D.top);
    var losses = idx.filter(function (i) { return better(i) < 0; })
      .sort(function (x, y) { return (better(x) - better(y)) || (x - y); }).slice(0, D.top);
    wlRows("wins-body", wins);
    wlRows("losses-body", losses);
  }
  function ngramRows(id, rows, side, key, swap) {
    var body = $(id);
    if (!body) { return; }
    body.textContent = "";
    if (!rows || !rows.length) {
      var tr0 = el("tr"), td0 = el("td", "muted", rows ? "none" : "choose two different systems");
      td0.colSpan = 7; tr0.appendChild(td0); body.appendChild(tr0);
      return;
    }
    var shown = [];
    rows.forEach(function (r, j) {
      if (shown.length >= D.ngramRows) { return; }
      if (st.ngWords && !r[0].split(" ").every(isWord)) { return; }
      if (st.ngCollapse && shown.some(function (s) { return contains(s[0], r[0]); })) { return; }
      shown.push(r);
      var tr = el("tr"), td = el("td", "ng"), btn = el("button", "ngram", r[0]);
      var ma = swap ? r[3] : r[2], mb = swap ? r[2] : r[3], lo = swap ? -r[6] : r[5], hi = swap ? -r[5] : r[6];
      btn.type = "button";
      btn.title = "list the segments where A and B differ on this n-gram";
      btn.addEventListener("click", function () {
        st.ng = st.ngKind + ":" + key + "." + side + "." + j; st.seg = -1; st.page = 0; st.q = ""; $("filter").value = "";
        st.sec = "segment-table";
        update();
        $("segment-table").scrollIntoView();
      });
      td.appendChild(btn);
      tr.appendChild(td);
      tr.appendChild(el("td", "num", String(r[1])));
      tr.appendChild(el("td", "num", String(ma)));
      tr.appendChild(el("td", "num", String(mb)));
      tr.appendChild(el("td", "num", String(r[4])));
      var dd = el("td", "num", (ma - mb > 0 ? "+" : "") + (ma - mb) + " ");
      dd.appendChild(el("span", "muted", "[" + (lo > 0 ? "+" : "") + lo + ", " + (hi > 0 ? "+" : "") + hi + "]"));
      tr.appendChild(dd);
      tr.appendChild(el("td", "num", String(r[7].length)));
      body.appendChild(tr);
    });
  }
  // a token with a letter or digit that is not a placeholder such as <unk>
  function isWord(t) { return /[\p{L}\p{N}]/u.test(t) && !/^(<[^>]*>|\[[A-Z]+\])$/.test(t); }
  function contains(longer, shorter) {
    var x = " " + longer + " ", y = " " + shorter + " ";
    return longer !== shorter && x.indexOf(y) >= 0;
  }
  var NG_KIND = {
    m: ["better", "better", "Matched n-grams: A and B count the occurrences each system produced that the " +
        "references have (clipped as BLEU clips)."],
    o: ["over-generates more", "over-generates more", "Over-generated n-grams (compare-mt's \u201cover\u201d): A " +
        "and B count the occurrences each system produced beyond the largest count in one reference."],
    u: ["misses more", "misses more", "Under-generated n-grams (compare-mt's \u201cunder\u201d): A and B count " +
        "the occurrences in the references (largest count in one reference) each system did not produce."]
  };
  function renderNgrams() {
    var lo = Math.min(st.a, st.b), hi = Math.max(st.a, st.b), key = lo + "-" + hi, rows = D.ngrams[st.ngKind][key];
    var kind = NG_KIND[st.ngKind];
    [["ngrams-a-title", "A", st.a, 0], ["ngrams-b-title", "B", st.b, 1]].forEach(function (t) {
      var h = $(t[0]);
      if (h) { h.textContent = t[1] + " (" + D.systems[t[2]] + ") " + kind[t[3]]; }
    });
    if ($("ng-kind-note")) { $("ng-kind-note").textContent = kind[2]; }
    var swap = st.a !== lo;
    if (lo === hi) { rows = null; }
    ngramRows("ngrams-a-body", rows ? rows[swap ? 1 : 0] : null, swap ? 1 : 0, key, swap);
    ngramRows("ngrams-b-body", rows ? rows[swap ? 0 : 1] : null, swap ? 0 : 1, key, swap);
    var ex = document.querySelector("#ngrams .export");
    if (ex && D.ngramExports[key]) { ex.setAttribute("data-export", D.ngramExports[key]); }
  }
  function syncSelects() {
    [["sys-a", "a"], ["sys-b", "b"], ["ng-a", "a"], ["ng-b", "b"]].forEach(function (p) {
      var s = $(p[0]); if (s) { s.value = String(st[p[1]]); }
    });
    if ($("metric")) { $("metric").value = String(st.m); }
  }
  function update() { syncSelects(); setNames(); renderScatter(); renderWinLoss(); renderNgrams(); renderTable(); }

  // ---- state in the address ----
  var KEYS = {idx: 1, len: 1, a: 1, b: 1, delta: 1};
  function starList() {
    return Object.keys(st.star).map(Number).sort(function (x, y) { return x - y; });
  }
  function starInfo() {
    var n = starList().length, box = $("star-info");
    if (box) { box.textContent = n ? n + " starred" : ""; }
  }
  // the state as an address fragment; systems by name, so a link survives a report with other systems
  function stateHash(extra) {
    var x = {}, k;
    for (k in st) { if (Object.prototype.hasOwnProperty.call(st, k)) { x[k] = st[k]; } }
    for (k in (extra || {})) { if (Object.prototype.hasOwnProperty.call(extra, k)) { x[k] = extra[k]; } }
    var p = ["a=" + encodeURIComponent(D.systems[x.a]), "b=" + encodeURIComponent(D.systems[x.b]),
             "m=" + encodeURIComponent(D.metrics[x.m]), "k=" + x.key, "d=" + x.dir, "p=" + x.page];
    if (x.q) { p.push("q=" + encodeURIComponent(x.q)); }
    if (x.field !== "all") { p.push("f=" + x.field); }
    if (x.re) { p.push("r=1"); }
    if (x.diff !== "all") { p.push("s=" + x.diff); }
    if (x.view !== "match") { p.push("h=" + x.view); }
    if (x.ng) { p.push("ng=" + x.ng); }
    if (x.seg >= 0) { p.push("seg=" + (x.seg + 1)); }
    var stars = Object.keys(x.star).map(function (i) { return +i + 1; }).sort(function (u, v) { return u - v; });
    if (stars.length) { p.push("star=" + stars.join(".")); }
    if (x.lk !== "ref") { p.push("lk=" + x.lk); }
    if (x.lmin !== null) { p.push("lmin=" + x.lmin); }
    if (x.lmax !== null) { p.push("lmax=" + x.lmax); }
    if (x.dmin !== null) { p.push("dmin=" + x.dmin); }
    if (x.sec) { p.push("sec=" + encodeURIComponent(x.sec)); }
    if (x.ngCollapse) { p.push("nc=1"); }
    if (x.ngWords) { p.push("nw=1"); }
    if (x.ngKind !== "m") { p.push("nk=" + x.ngKind); }
    return "v:" + p.join("&");
  }
  function saveHash() {
    try { history.replaceState(null, "", "#" + stateHash()); } catch (e) { /* a sandboxed frame */ }
  }
  function sectionOf(id) {
    var node = id && document.getElementById(id);
    return node && node.tagName === "SECTION" ? id : "";
  }
  function loadHash() {
    var h = location.hash;
    if (sectionOf(h.slice(1))) { st.sec = h.slice(1); return false; }  // a plain section link
    if (h.indexOf("#v:") !== 0) { return false; }
    st.seg = -1; st.ng = ""; st.star = {}; st.lmin = st.lmax = st.dmin = null; st.sec = "";
    st.ngCollapse = st.ngWords = false; st.ngKind = "m";
    h.slice(3).split("&").forEach(function (kv) {
      var i = kv.indexOf("="), k = kv.slice(0, i), v = kv.slice(i + 1), n = parseInt(v, 10), x;
      try { v = decodeURIComponent(v); } catch (e) { return; }
      if ((k === "a" || k === "b") && D.systems.indexOf(v) >= 0) { st[k] = D.systems.indexOf(v); }
      else if ((k === "a" || k === "b") && /^\d+$/.test(v) && n < K) { st[k] = n; }
      else if (k === "m" && D.metrics.indexOf(v) >= 0) { st.m = D.metrics.indexOf(v); }
      else if (k === "m" && /^\d+$/.test(v) && n < D.metrics.length) { st.m = n; }
      else if (k === "star") {
        v.split(".").forEach(function (t) { x = parseInt(t, 10); if (x >= 1 && x <= N) { st.star[x - 1] = true; } });
      }
      else if (k === "lk" && /^(ref|src)$/.test(v)) { st.lk = v; }
      else if ((k === "lmin" || k === "lmax") && /^\d+$/.test(v)) { st[k] = n; }
      else if (k === "dmin" && isFinite(parseFloat(v)) && parseFloat(v) >= 0) { st.dmin = parseFloat(v); }
      else if (k === "sec") { st.sec = sectionOf(v); }
      else if (k === "nc") { st.ngCollapse = v === "1"; }
      else if (k === "nw") { st.ngWords = v === "1"; }
      else if (k === "nk" && /^[mou]$/.test(v)) { st.ngKind = v; }
      else if (k === "k" && KEYS[v]) { st.key = v; }
      else if (k === "d") { st.dir = n < 0 ? -1 : 1; }
      else if (k === "p" && n >= 0) { st.page = n; }
      else if (k === "q") { st.q = v; }
      else if (k === "f" && /^(all|src|ref|a|b|sys)$/.test(v)) { st.field = v; }
      else if (k === "r") { st.re = v === "1"; }
      else if (k === "s" && /^(all|a|b|eq|star)$/.test(v)) { st.diff = v; }
      else if (k === "h" && /^(match|diff)$/.test(v)) { st.view = v; }
      else if (k === "ng" && /^([mou]:)?\d+-\d+\.[01]\.\d+$/.test(v)) { st.ng = v; }
      else if (k === "seg" && n >= 1 && n <= N) { st.seg = n - 1; }
    });
    $("filter").value = st.q; $("field").value = st.field; $("regex").checked = st.re;
    $("diff").value = st.diff; $("view").value = st.view; $("len-of").value = st.lk;
    $("len-min").value = st.lmin === null ? "" : st.lmin; $("len-max").value = st.lmax === null ? "" : st.lmax;
    $("delta-min").value = st.dmin === null ? "" : st.dmin;
    if ($("ng-collapse")) {
      $("ng-collapse").checked = st.ngCollapse; $("ng-words").checked = st.ngWords; $("ng-kind").value = st.ngKind;
    }
    return true;
  }

  // ---- generic sortable tables (systems) ----
  function cellValue(td) {
    var v = td.getAttribute("data-value");
    return v !== null ? parseFloat(v) : td.textContent.trim().toLowerCase();
  }
  function sortable(table) {
    var ths = table.querySelectorAll("thead th[data-sort]"), body0 = table.tBodies[0];
    var original = Array.prototype.slice.call(body0.rows), lines = original.map(function (r) {
      return r.classList.contains("cluster-start");
    });
    Array.prototype.forEach.call(ths, function (th) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "sort";
      while (th.firstChild) { b.appendChild(th.firstChild); }
      th.appendChild(b);
      th.addEventListener("click", function () {
        var col = Array.prototype.indexOf.call(th.parentNode.children, th);
        // the first click sorts best first (descending where higher is better), the next one reverses
        var now = th.getAttribute("aria-sort"), first = th.getAttribute("data-first") === "desc" ? -1 : 1;
        var dir = now === "ascending" ? -1 : now === "descending" ? 1 : first;
        Array.prototype.forEach.call(ths, function (o) { o.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        var body = table.tBodies[0], list = Array.prototype.slice.call(body.rows);
        list.sort(function (x, y) {
          var p = cellValue(x.cells[col]), q = cellValue(y.cells[col]);
          return (p < q ? -1 : p > q ? 1 : 0) * dir;
        });
        // the cluster lines stay where the rows are in rank order again
        var ranked = list.every(function (r, x) { return r === original[x]; });
        list.forEach(function (r, x) { r.classList.toggle("cluster-start", ranked && lines[x]); body.appendChild(r); });
      });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), sortable);

  // ---- exports ----
  function download(text, type, filename) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], {type: type}));
    a.download = filename;
    document.body.appendChild(a); a.click(); document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  }
  // a chart as a standalone SVG file: the page's chart styles written into it, in the light colours
  var SVG_STYLE = "text{font:11px Helvetica,Arial,sans-serif;fill:#1d1d1f}text.title{font-weight:600;font-size:12px}" +
    ".grid{stroke:#ddd;stroke-width:1}.axisline{stroke:#5f6368}.zero{stroke:#1d1d1f;stroke-width:1.2}" +
    ".diag{stroke:#5f6368;stroke-dasharray:4 3}.dots{stroke:#0067a5;stroke-opacity:.45;stroke-width:5;" +
    "stroke-linecap:round;fill:none}.pick{fill:none;stroke:#be0032;stroke-width:2}";
  function chartSvg(id) {
    var svg = $(id);
    if (!svg) { return null; }
    var copy = svg.cloneNode(true), style = document.createElementNS("http://www.w3.org/2000/svg", "style");
    style.textContent = SVG_STYLE;
    copy.insertBefore(style, copy.firstChild);
    copy.removeAttribute("class");
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy) + "\n";
  }
  Array.prototype.forEach.call(document.querySelectorAll(".export button"), function (btn) {
    btn.addEventListener("click", function () {
      var name = btn.parentNode.getAttribute("data-export"), fmt = btn.getAttribute("data-format");
      if (fmt === "svg") {
        var id = btn.getAttribute("data-chart"), text = chartSvg(id);
        if (text) { download(text, "image/svg+xml", id.replace(/[^A-Za-z0-9+._-]/g, "_") + ".svg"); }
        return;
      }
      var item = D.exports[name];
      if (!item) { return; }
      download(item[fmt], fmt === "csv" ? "text/csv" : "application/x-tex",
               name.replace(/[^A-Za-z0-9+._-]/g, "_") + (fmt === "csv" ? ".csv" : ".tex"));
    });
  });

  // ---- controls ----
  Array.prototype.forEach.call(document.querySelectorAll("#segments th[data-key]"), function (th) {
    th.addEventListener("click", function () {
      var k = th.getAttribute("data-key");
      if (st.key === k) { st.dir = -st.dir; } else { st.key = k; st.dir = 1; }
      st.page = 0;
      renderTable();
    });
  });
  $("filter").addEventListener("input", function () { st.q = this.value; st.page = 0; renderTable(); });
  $("field").addEventListener("change", function () { st.field = this.value; st.page = 0; renderTable(); });
  $("regex").addEventListener("change", function () { st.re = this.checked; st.page = 0; renderTable(); });
  $("diff").addEventListener("change", function () { st.diff = this.value; st.page = 0; renderTable(); });
  $("view").addEventListener("change", function () { st.view = this.value; update(); });
  $("prev").addEventListener("click", function () { st.page--; renderTable(); });
  $("next").addEventListener("click", function () { st.page++; renderTable(); });
  [["sys-a", "a"], ["sys-b", "b"], ["ng-a", "a"], ["ng-b", "b"]].forEach(function (p) {
    var s = $(p[0]);
    if (s) { s.addEventListener("change", function () { st[p[1]] = +this.value; st.ng = ""; st.page = 0; update(); }); }
  });
  if ($("metric")) { $("metric").addEventListener("change", function () { st.m = +this.value; update(); }); }
  var svg = $("scatter-svg");
  if (svg && D.scatter) {
    // keyboard: the arrow keys step through the segments, shown one at a time in the table
    svg.setAttribute("tabindex", "0");
    svg.addEventListener("keydown", function (ev) {
      var step = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1}[ev.key];
      if (!step || !N) { return; }
      ev.preventDefault();
      st.seg = st.seg < 0 ? (step > 0 ? 0 : N - 1) : (st.seg + step + N) % N;
      st.ng = ""; st.page = 0; update();
    });
    svg.addEventListener("click", function (ev) {
      var box = svg.getBoundingClientRect(), g = D.scatter, vb = svg.viewBox.baseVal;
      var x = (ev.clientX - box.left) * vb.width / box.width, y = (ev.clientY - box.top) * vb.height / box.height;
      var best = -1, dist = Infinity;
      for (var i = 0; i < N; i++) {
        var dx = g.left + g.plot * clip(score(st.a, i)) / 100 - x, dy = g.y0 - g.plot * clip(score(st.b, i)) / 100 - y;
        if (dx * dx + dy * dy < dist) { dist = dx * dx + dy * dy; best = i; }
      }
      if (best >= 0) {
        st.seg = best; st.ng = ""; st.page = 0; st.sec = "segment-table"; update(); $("segment-table").scrollIntoView();
      }
    });
  }
  function numberOrNull(v, integer) {
    if (v === "" || v === null) { return null; }
    var n = integer ? parseInt(v, 10) : parseFloat(v);
    return isFinite(n) && n >= 0 ? n : null;
  }
  if ($("ng-collapse")) {
    $("ng-collapse").addEventListener("change", function () { st.ngCollapse = this.checked; renderNgrams(); saveHash(); });
    $("ng-words").addEventListener("change", function () { st.ngWords = this.checked; renderNgrams(); saveHash(); });
    $("ng-kind").addEventListener("change", function () { st.ngKind = this.value; renderNgrams(); saveHash(); });
  }
  $("len-of").addEventListener("change", function () { st.lk = this.value; st.page = 0; renderTable(); });
  $("len-min").addEventListener("input", function () { st.lmin = numberOrNull(this.value, true); st.page = 0; renderTable(); });
  $("len-max").addEventListener("input", function () { st.lmax = numberOrNull(this.value, true); st.page = 0; renderTable(); });
  $("delta-min").addEventListener("input", function () { st.dmin = numberOrNull(this.value, false); st.page = 0; renderTable(); });
  // the listed segments (every page of the current filter, or the starred ones) with the view's columns
  function listed() {
    var r = rows(), list = [], i, k;
    for (var j = 0; j < r.length; j++) {
      i = r[j];
      var item = {segment: i + 1, reference_length: D.len[i]};
      if (D.src) { item.source = D.src[i]; }
      for (k = 0; k < D.refs.length; k++) { item["reference " + D.refNames[k]] = D.refs[k][i]; }
      item["A " + D.systems[st.a]] = plain(D.hyp[st.a][i]);
      item["A " + D.metrics[st.m]] = score(st.a, i);
      item["B " + D.systems[st.b]] = plain(D.hyp[st.b][i]);
      item["B " + D.metrics[st.m]] = score(st.b, i);
      item["B - A"] = Math.round((score(st.b, i) - score(st.a, i)) * 10000) / 10000;
      item.starred = !!st.star[i];
      list.push(item);
    }
    return list;
  }
  function tsvCell(v) { return v === null || v === undefined ? "" : String(v).replace(/[\t\r\n]/g, " "); }
  Array.prototype.forEach.call(document.querySelectorAll("#segment-export button"), function (btn) {
    btn.addEventListener("click", function () {
      var list = listed(), fmt = btn.getAttribute("data-format"), name = st.diff === "star" ? "starred" : "segments";
      if (fmt === "json") { download(JSON.stringify(list, null, 1) + "\n", "application/json", name + ".json"); return; }
      var cols = list.length ? Object.keys(list[0]) : [], lines = [cols.join("\t")];
      list.forEach(function (item) { lines.push(cols.map(function (c) { return tsvCell(item[c]); }).join("\t")); });
      download(lines.join("\n") + "\n", "text/tab-separated-values", name + ".tsv");
    });
  });
  function goToSection() {
    var target = st.sec && document.getElementById(st.sec);
    if (target) { target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", function () {
    var plainSection = sectionOf(location.hash.slice(1));
    loadHash();
    if (plainSection) { saveHash(); goToSection(); return; }  // a nav link: the section joins the state
    update(); goToSection();
  });
  loadHash();
  update();
  starInfo();
  goToSection();
})();
"""
