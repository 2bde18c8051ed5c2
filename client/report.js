/* report.js - the script of sudoctl's HTML report (compiled into sudoctl by
 * embed.cmake; the page needs no network).
 *
 * explain/hint pages: every puzzle is a JSON block (class puzzle-data) with the
 * grid before each step ("states": 81 value digits then 81 candidate masks in
 * three hex digits), the steps as the daemon sent them (marks with roles,
 * houses, links, placements, eliminations) and each step's chains split into
 * branches in Eureka notation. One grid is drawn at a time: buttons, arrow
 * keys and a step list move through the steps; runs of singles fold into one
 * item; a chain of many branches is shown one branch at a time.
 * rate pages: one table, sortable by clicking a column head. */
(function () {
  'use strict';
  var L = JSON.parse(document.getElementById('labels').textContent);
  function t(k) { return L[k] || k; }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* ---- rate: a sortable table ------------------------------------------ */
  function sortable(table) {
    var heads = table.querySelectorAll('th');
    Array.prototype.forEach.call(heads, function (th, col) {
      function sort() {
        var asc = !th.classList.contains('asc');
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove('asc', 'desc'); });
        th.classList.add(asc ? 'asc' : 'desc');
        var num = th.getAttribute('data-type') === 'num';
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col] ? a.cells[col].textContent : '', y = b.cells[col] ? b.cells[col].textContent : '';
          var r;
          if (num) {
            var fx = parseFloat(x), fy = parseFloat(y);
            if (isNaN(fx)) fx = -Infinity;
            if (isNaN(fy)) fy = -Infinity;
            r = fx - fy;
          } else r = x.localeCompare(y);
          return asc ? r : -r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); } });
    });
  }
  if (document.body.classList.contains('rate')) {
    var tb = document.getElementById('rates');
    if (tb) sortable(tb);
    window.sudokuReport = { rows: function () { return tb.tBodies[0].rows.length; } };
    return;
  }

  /* ---- explain / hint ------------------------------------------------------ */
  var SVGNS = 'http://www.w3.org/2000/svg';
  var CS = 54, MG = 26, SUB = CS / 3, W = 9 * CS + 2 * MG;
  var SINGLES = { 'full-house': 1, 'hidden-single-box': 1, 'hidden-single-line': 1, 'naked-single': 1, 'band-hatching': 1 };
  /* clearly distinct hues, one per role */
  var ROLE = {
    base: '#4f7fe0', cover: '#f2a900', fin: '#9b4fd1', endofin: '#f06fb0', pivot: '#ffe033',
    pincer: '#19c3d6', on: '#4cbb4f', off: '#ff7a45', als: '#9e9e9e', target: '#8d6e63'
  };
  var ROLES = ['base', 'cover', 'fin', 'endofin', 'pivot', 'pincer', 'on', 'off', 'als', 'target'];
  /* each almost locked set its own tint */
  var ALS_TINT = ['#7cc8f4', '#f7a27f', '#a5d88a', '#c99be0', '#f5e17a', '#6fd1c2', '#f4a6c8', '#c9b39c'];
  var ELIM = '#d50000', PLACE = '#1b8e3a', STRONG = '#1a3d99', WEAK = '#b0225e', INNER = '#7b1fa2';

  var puzzles = Array.prototype.map.call(document.querySelectorAll('script.puzzle-data'), function (s) {
    return JSON.parse(s.textContent);
  });
  var app = document.getElementById('app');
  var st = { p: 0, item: 0, fold: true, branch: -1, claim: -1, items: [] };

  function cellName(c) { return 'r' + (Math.floor(c / 9) + 1) + 'c' + (c % 9 + 1); }
  function parseCand(s) { /* "r1c2=5" / "r3c2<>7" */
    var m = /^r([1-9])c([1-9])(=|<>)([1-9])$/.exec(s);
    return m ? { cell: (m[1] - 1) * 9 + (m[2] - 1), digit: +m[4], place: m[3] === '=' } : null;
  }
  /* HoDoKu's compact cells: "r13489c4", "r1c789,r23c8" */
  function compactCells(s) {
    var out = [];
    s.split(',').forEach(function (part) {
      var m = /^r([1-9]+)c([1-9]+)$/.exec(part.trim());
      if (!m) return;
      m[1].split('').forEach(function (r) { m[2].split('').forEach(function (c) { out.push((r - 1) * 9 + (c - 1)); }); });
    });
    return out;
  }
  function node(s) { /* "r2c46/-1" -> {cells, digit, on} */
    var m = /^(.*)\/([+-])([1-9])$/.exec(s || '');
    if (!m) return null;
    var cells = compactCells(m[1]);
    if (!cells.length) cells = m[1].split(',').map(function (x) { return compactCells(x)[0]; }).filter(function (x) { return x !== undefined; });
    return { cells: cells, digit: +m[3], on: m[2] === '+' };
  }
  function stateOf(s) {
    var v = [], mask = [];
    for (var c = 0; c < 81; c++) {
      v.push(s.charCodeAt(c) - 48);
      mask.push(parseInt(s.substr(81 + 3 * c, 3), 16));
    }
    return { v: v, mask: mask };
  }
  function candXY(c, d) {
    return [MG + (c % 9) * CS + ((d - 1) % 3) * SUB + SUB / 2, MG + Math.floor(c / 9) * CS + Math.floor((d - 1) / 3) * SUB + SUB / 2];
  }
  function fmt1(x) { return typeof x === 'number' ? x.toFixed(1) : (x === undefined || x === null ? '?' : String(x)); }
  function isAlsStep(s) { return /^(als-|death-blossom)/.test(s.technique || ''); }

  /* the navigation items: start, steps or folded runs of singles, end */
  function buildItems(pz) {
    var items = [{ kind: 'start' }], steps = pz.steps || [], i = 0;
    while (i < steps.length) {
      if (st.fold && SINGLES[steps[i].technique]) {
        var j = i;
        while (j < steps.length && SINGLES[steps[j].technique]) j++;
        if (j - i >= 2) { items.push({ kind: 'run', from: i, to: j }); i = j; continue; }
      }
      items.push({ kind: 'step', i: i });
      i++;
    }
    if (pz.command === 'explain') items.push({ kind: 'end' });
    return items;
  }
  function itemOfStep(i) {
    for (var k = 0; k < st.items.length; k++) {
      var it = st.items[k];
      if ((it.kind === 'step' && it.i === i) || (it.kind === 'run' && i >= it.from && i < it.to)) return k;
    }
    return 0;
  }
  function stepText(s) { return s.reading || s.text || s.technique; }
  function runText(pz, it) {
    var pl = [];
    for (var i = it.from; i < it.to; i++) (pz.steps[i].placements || []).forEach(function (p) { pl.push(p); });
    return (it.to - it.from) + ' ' + t('singles') + ': ' + pl.join(', ');
  }

  /* ---- the grid ------------------------------------------------------------- */
  function S(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function drawGrid(pz, stateIdx, look, branch) {
    var g = stateOf(pz.states[Math.min(stateIdx, pz.states.length - 1)]);
    var svg = S('svg', { width: W, height: W, viewBox: '0 0 ' + W + ' ' + W, 'font-family': 'DejaVu Sans, sans-serif', id: 'grid' });
    var defs = S('defs', {});
    [['as', STRONG], ['aw', WEAK]].forEach(function (m) {
      var mk = S('marker', { id: m[0], viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
      mk.appendChild(S('path', { d: 'M0,0L10,5L0,10z', fill: m[1] }));
      defs.appendChild(mk);
    });
    svg.appendChild(defs);
    svg.appendChild(S('rect', { x: MG, y: MG, width: 9 * CS, height: 9 * CS, fill: '#fff' }));
    var role = {}, cellRole = {}, elim = {}, place = {}, alsOf = {};
    (look.houses || []).forEach(function (h) {
      var house = h[0], r = h[1], x, y, w, hh;
      if (house < 9) { x = 0; y = house; w = 9; hh = 1; } else if (house < 18) { x = house - 9; y = 0; w = 1; hh = 9; } else { x = (house - 18) % 3 * 3; y = Math.floor((house - 18) / 3) * 3; w = 3; hh = 3; }
      svg.appendChild(S('rect', { x: MG + x * CS + 2, y: MG + y * CS + 2, width: w * CS - 4, height: hh * CS - 4, fill: ROLE[r] || '#ddd', 'fill-opacity': 0.16, stroke: ROLE[r] || '#999', 'stroke-width': 3, 'stroke-opacity': 0.8, 'class': 'house house-' + r }));
    });
    (look.alsSets || []).forEach(function (set, k) {
      set.forEach(function (c) {
        if (alsOf[c] !== undefined) return;
        alsOf[c] = k;
        svg.appendChild(S('rect', { x: MG + c % 9 * CS + 1, y: MG + Math.floor(c / 9) * CS + 1, width: CS - 2, height: CS - 2, fill: ALS_TINT[k % ALS_TINT.length], 'fill-opacity': 0.55, 'class': 'als-set als-' + k }));
      });
    });
    /* one branch shown: only its own chain nodes are coloured on/off */
    var inBranch = null, links0 = look.links || [];
    if (branch && branch.length) {
      inBranch = {};
      for (var bi = branch[0]; bi < branch[1] && bi < links0.length; bi++)
        [node(links0[bi].from), node(links0[bi].to)].forEach(function (n) {
          if (n) n.cells.forEach(function (c) { inBranch[c * 10 + n.digit] = 1; });
        });
    }
    (look.marks || []).forEach(function (m) {
      if (m[1] === 0) cellRole[m[0]] = m[2];
      else if (!inBranch || inBranch[m[0] * 10 + m[1]] || (m[2] !== 'on' && m[2] !== 'off')) role[m[0] * 10 + m[1]] = m[2];
    });
    (look.placements || []).forEach(function (s) { var p = parseCand(s); if (p) place[p.cell * 10 + p.digit] = 1; });
    (look.eliminations || []).forEach(function (s) { var p = parseCand(s); if (p) elim[p.cell * 10 + p.digit] = 1; });
    Object.keys(cellRole).forEach(function (c) {
      c = +c;
      if (alsOf[c] !== undefined && cellRole[c] === 'als') return;
      svg.appendChild(S('rect', { x: MG + c % 9 * CS + 1, y: MG + Math.floor(c / 9) * CS + 1, width: CS - 2, height: CS - 2, fill: ROLE[cellRole[c]] || '#ddd', 'fill-opacity': 0.45, 'class': 'cellrole role-' + cellRole[c] }));
    });
    for (var i = 0; i <= 9; i++) {
      var w = i % 3 ? 1 : 3;
      svg.appendChild(S('line', { x1: MG, y1: MG + i * CS, x2: MG + 9 * CS, y2: MG + i * CS, stroke: '#333', 'stroke-width': w }));
      svg.appendChild(S('line', { x1: MG + i * CS, y1: MG, x2: MG + i * CS, y2: MG + 9 * CS, stroke: '#333', 'stroke-width': w }));
      if (i < 9) {
        svg.appendChild(S('text', { x: MG + i * CS + CS / 2, y: MG - 8, 'font-size': 12, fill: '#666', 'text-anchor': 'middle' }, 'c' + (i + 1)));
        svg.appendChild(S('text', { x: MG / 2, y: MG + i * CS + CS / 2 + 4, 'font-size': 12, fill: '#666', 'text-anchor': 'middle' }, 'r' + (i + 1)));
      }
    }
    for (var c = 0; c < 81; c++) {
      var x0 = MG + c % 9 * CS, y0 = MG + Math.floor(c / 9) * CS;
      if (g.v[c]) {
        var given = pz.givens && pz.givens[c] === '1';
        svg.appendChild(S('text', { x: x0 + CS / 2, y: y0 + CS / 2 + 12, 'font-size': 34, 'text-anchor': 'middle', fill: given ? '#000' : '#1a5fb4', 'font-weight': given ? 'bold' : 'normal', 'class': given ? 'given' : 'value' }, String(g.v[c])));
        continue;
      }
      for (var d = 1; d <= 9; d++) {
        var has = (g.mask[c] >> (d - 1)) & 1, k = c * 10 + d;
        if (!has && !place[k]) continue;
        var xy = candXY(c, d), cx = xy[0], cy = xy[1];
        if (place[k]) {
          svg.appendChild(S('circle', { cx: cx, cy: cy, r: SUB / 2 + 1, fill: PLACE, 'class': 'place' }));
          svg.appendChild(S('text', { x: cx, y: cy + 5, 'font-size': 14, 'font-weight': 'bold', 'text-anchor': 'middle', fill: '#fff' }, String(d)));
          continue;
        }
        var r = role[k];
        if (r) {
          var fill = ROLE[r] || '#ccc';
          if (r === 'als' && alsOf[c] !== undefined) fill = ALS_TINT[alsOf[c] % ALS_TINT.length];
          svg.appendChild(S('circle', { cx: cx, cy: cy, r: SUB / 2 - 0.5, fill: fill, stroke: '#555', 'stroke-width': 0.6, 'class': 'role role-' + r }));
        }
        if (elim[k]) {
          svg.appendChild(S('circle', { cx: cx, cy: cy, r: SUB / 2 - 0.5, fill: '#ffd6d6', stroke: ELIM, 'stroke-width': 1.5, 'class': 'elim' }));
          svg.appendChild(S('text', { x: cx, y: cy + 5, 'font-size': 13, 'font-weight': 'bold', 'text-anchor': 'middle', fill: ELIM }, String(d)));
          var q = SUB / 2 - 2;
          svg.appendChild(S('path', { d: 'M' + (cx - q) + ',' + (cy - q) + 'L' + (cx + q) + ',' + (cy + q) + 'M' + (cx + q) + ',' + (cy - q) + 'L' + (cx - q) + ',' + (cy + q), stroke: ELIM, 'stroke-width': 2.2, 'stroke-linecap': 'round' }));
        } else {
          svg.appendChild(S('text', { x: cx, y: cy + 4.5, 'font-size': 12.5, 'text-anchor': 'middle', fill: r ? '#000' : '#666' }, String(d)));
        }
      }
    }
    /* a nested step's claim: the inner steps' effects, numbered, the candidate ringed */
    if (look.inner) {
      look.inner.marks.forEach(function (m) {
        var xy = candXY(m.cell, m.digit), cx = xy[0], cy = xy[1];
        if (m.place) {
          svg.appendChild(S('circle', { cx: cx, cy: cy, r: SUB / 2, fill: INNER, 'class': 'inner inner-place' }));
          svg.appendChild(S('text', { x: cx, y: cy + 5, 'font-size': 13, 'font-weight': 'bold', 'text-anchor': 'middle', fill: '#fff' }, String(m.digit)));
        } else {
          var q = SUB / 2 - 2;
          svg.appendChild(S('circle', { cx: cx, cy: cy, r: SUB / 2 - 0.5, fill: '#f1e4fa', stroke: INNER, 'stroke-width': 1.5, 'class': 'inner inner-elim' }));
          svg.appendChild(S('text', { x: cx, y: cy + 5, 'font-size': 13, 'font-weight': 'bold', 'text-anchor': 'middle', fill: INNER }, String(m.digit)));
          svg.appendChild(S('path', { d: 'M' + (cx - q) + ',' + (cy - q) + 'L' + (cx + q) + ',' + (cy + q) + 'M' + (cx + q) + ',' + (cy - q) + 'L' + (cx - q) + ',' + (cy + q), stroke: INNER, 'stroke-width': 2, 'stroke-linecap': 'round' }));
        }
        svg.appendChild(S('text', { x: cx + SUB / 2 - 1, y: cy - SUB / 2 + 6, 'font-size': 8, 'font-weight': 'bold', 'text-anchor': 'middle', fill: '#000', 'class': 'inner-no' }, String(m.no)));
      });
      var cl = look.inner.claim, cxy = candXY(cl.cell, cl.digit);
      svg.appendChild(S('circle', { cx: cxy[0], cy: cxy[1], r: SUB / 2 + 3, fill: 'none', stroke: '#000', 'stroke-width': 2.5, 'stroke-dasharray': '3,2', 'class': 'claim' }));
    }
    /* links: strong solid, weak dashed; a gentle bend keeps parallel ones apart */
    var links = look.links || [];
    var from = 0, to = links.length;
    if (branch && branch.length) { from = branch[0]; to = branch[1]; }
    for (var li = from; li < to; li++) {
      var l = links[li], a = node(l.from), b = node(l.to);
      if (!a || !b) continue;
      var p1 = centre(a), p2 = centre(b), strong = !!l.strong;
      var dx = p2[0] - p1[0], dy = p2[1] - p1[1], len = Math.sqrt(dx * dx + dy * dy);
      if (len < 1) continue;
      var ux = dx / len, uy = dy / len, cut = SUB / 2;
      var x1 = p1[0] + ux * cut, y1 = p1[1] + uy * cut, x2 = p2[0] - ux * cut, y2 = p2[1] - uy * cut;
      var mx = (x1 + x2) / 2 - (y2 - y1) * 0.15, my = (y1 + y2) / 2 + (x2 - x1) * 0.15;
      var at = { d: 'M' + x1.toFixed(1) + ',' + y1.toFixed(1) + ' Q' + mx.toFixed(1) + ',' + my.toFixed(1) + ' ' + x2.toFixed(1) + ',' + y2.toFixed(1), fill: 'none', stroke: strong ? STRONG : WEAK, 'stroke-width': 2, 'marker-end': strong ? 'url(#as)' : 'url(#aw)', 'class': strong ? 'link strong' : 'link weak' };
      if (!strong) at['stroke-dasharray'] = '5,4';
      svg.appendChild(S('path', at));
    }
    /* the branch's first node: ringed */
    if (branch && branch.length && links[from]) {
      var first = node(links[from].from);
      if (first) first.cells.forEach(function (c) {
        var p = candXY(c, first.digit);
        svg.appendChild(S('circle', { cx: p[0], cy: p[1], r: SUB / 2 + 2, fill: 'none', stroke: '#000', 'stroke-width': 2, 'class': 'premise' }));
      });
    }
    /* hover: a cell's candidates */
    for (c = 0; c < 81; c++) {
      var hit = S('rect', { x: MG + c % 9 * CS, y: MG + Math.floor(c / 9) * CS, width: CS, height: CS, fill: 'transparent', 'data-cell': c, 'class': 'hit' });
      svg.appendChild(hit);
    }
    svg.addEventListener('mousemove', function (e) {
      var c = e.target.getAttribute && e.target.getAttribute('data-cell');
      if (c === null || c === undefined) { tip.style.display = 'none'; return; }
      tip.textContent = cellInfo(g, pz, +c);
      tip.style.display = 'block';
      tip.style.left = (e.clientX + 14) + 'px';
      tip.style.top = (e.clientY + 10) + 'px';
    });
    svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    return svg;
  }
  function centre(n) {
    var sx = 0, sy = 0;
    n.cells.forEach(function (c) { var p = candXY(c, n.digit); sx += p[0]; sy += p[1]; });
    return [sx / n.cells.length, sy / n.cells.length];
  }
  function cellInfo(g, pz, c) {
    if (g.v[c]) return cellName(c) + ' = ' + g.v[c] + (pz.givens && pz.givens[c] === '1' ? ' (' + t('given') + ')' : '');
    var ds = [];
    for (var d = 1; d <= 9; d++) if ((g.mask[c] >> (d - 1)) & 1) ds.push(d);
    return cellName(c) + ' ' + t('candidates') + ': ' + ds.join(' ');
  }
  var tip = el('div', { 'class': 'tip', id: 'tip' });
  document.body.appendChild(tip);

  /* what to draw for an item */
  function lookOf(pz, it) {
    if (it.kind === 'step') {
      var s = pz.steps[it.i], look = { marks: s.marks, houses: s.houses, placements: s.placements, eliminations: s.eliminations, links: s.links, alsSets: [] };
      if (isAlsStep(s)) {
        var re = /((?:r[1-9]+c[1-9]+,?)+) \{[1-9]+\}/g, m;
        while ((m = re.exec(s.text || ''))) look.alsSets.push(compactCells(m[1]));
      }
      (s.links || []).forEach(function (l) { if (l.kind === 'als' && l.als && l.als.length) look.alsSets.push(l.als); });
      var b = s.because && st.claim >= 0 ? s.because[st.claim] : null;
      if (b) { /* the claim's inner steps: their effects, each with its number */
        var cl = parseCand(b.candidate), marks = [];
        b.steps.forEach(function (k) {
          var inn = s.inner[k] || {};
          (inn.placements || []).concat(inn.eliminations || []).forEach(function (x) {
            var p = parseCand(x);
            if (p) marks.push({ cell: p.cell, digit: p.digit, place: p.place, no: k + 1 });
          });
        });
        if (cl) look.inner = { marks: marks, claim: cl };
      }
      return look;
    }
    if (it.kind === 'run') {
      var pl = [];
      for (var i = it.from; i < it.to; i++) pl = pl.concat(pz.steps[i].placements || []);
      return { placements: pl };
    }
    return {};
  }
  function stateIndex(pz, it) {
    if (pz.command !== 'explain') return 0;
    if (it.kind === 'step') return it.i;
    if (it.kind === 'run') return it.from;
    if (it.kind === 'end') return (pz.steps || []).length;
    return 0;
  }

  /* ---- the page ------------------------------------------------------------- */
  function summary(pz) {
    var box = el('div', { 'class': 'summary', id: 'summary' });
    var tab = el('table');
    function row(k, v, cls) { var tr = el('tr'); tr.appendChild(el('th', {}, k)); var td = el('td', cls ? { 'class': cls } : {}, v); tr.appendChild(td); tab.appendChild(tr); return td; }
    row(t('rating'), fmt1(pz.er) + ' / ' + fmt1(pz.ep) + ' / ' + fmt1(pz.ed), 'big');
    row(t('level'), pz.tlevel || pz.level || '?');
    row(t('score'), pz.score === undefined ? '?' : String(pz.score));
    var steps = pz.steps || [];
    row(t('steps'), steps.length + (pz.command === 'explain' ? ' (' + (pz.solved ? t('solved') : t('stuck')) + ')' : ''));
    if (pz.where) row(t('where'), pz.where);
    box.appendChild(tab);
    var hard = -1;
    steps.forEach(function (s, i) { if (hard < 0 || (s.difficulty || 0) > (steps[hard].difficulty || 0)) hard = i; });
    if (hard >= 0) {
      var hd = el('div');
      hd.appendChild(el('div', { 'class': 'big' }, t('hardest')));
      var a = el('a', { id: 'hardest' }, (hard + 1) + '. ' + stepText(steps[hard]) + ' (' + fmt1(steps[hard].difficulty) + ')');
      a.addEventListener('click', function () { go(itemOfStep(hard)); });
      hd.appendChild(a);
      box.appendChild(hd);
    }
    var used = {}, order = [];
    steps.forEach(function (s) {
      var k = s.tname || s.name || s.technique;
      if (!used[k]) { used[k] = { n: 0, d: 0 }; order.push(k); }
      used[k].n++;
      used[k].d = Math.max(used[k].d, s.difficulty || 0);
    });
    order.sort(function (a, b) { return used[a].d - used[b].d; });
    var tt = el('div', { id: 'techniques', 'class': 'chips' });
    order.forEach(function (k) {
      tt.appendChild(el('span', { 'class': 'chip' }, k + ' \u00d7' + used[k].n + ' (' + fmt1(used[k].d) + ')'));
    });
    var tw = el('div', { 'class': 'used' });
    tw.appendChild(el('div', { 'class': 'big' }, t('techniques')));
    tw.appendChild(tt);
    box.appendChild(tw);
    return box;
  }
  function legend() {
    var d = el('div', { 'class': 'legend' });
    d.appendChild(el('b', {}, t('legend') + ': '));
    ROLES.forEach(function (r) {
      d.appendChild(el('span', { 'class': 'sw', style: 'background:' + ROLE[r] }, t('role_' + r)));
    });
    d.appendChild(el('span', { 'class': 'sw', style: 'background:#ffd6d6;color:' + ELIM + ';border-color:' + ELIM + ';text-decoration:line-through' }, t('eliminated')));
    d.appendChild(el('span', { 'class': 'sw', style: 'background:' + PLACE + ';color:#fff' }, t('placed')));
    d.appendChild(el('span', { 'class': 'sw', style: 'background:#f1e4fa;color:' + INNER + ';border-color:' + INNER + ';text-decoration:line-through' }, t('inner')));
    d.appendChild(el('span', { 'class': 'sw', style: 'border:2px solid ' + STRONG + ';color:' + STRONG }, '\u2192 ' + t('strong')));
    d.appendChild(el('span', { 'class': 'sw', style: 'border:2px dashed ' + WEAK + ';color:' + WEAK }, '\u21e2 ' + t('weak')));
    return d;
  }

  var ui = {};
  function build() {
    app.textContent = '';
    if (puzzles.length > 1) {
      var sel = el('select', { 'class': 'puzzle-pick', id: 'pick' });
      puzzles.forEach(function (pz, i) { sel.appendChild(el('option', { value: i }, (i + 1) + '. ' + (pz.where || '') + ' ' + (pz.puzzle || pz.input || '').slice(0, 81))); });
      sel.value = st.p;
      sel.addEventListener('change', function () { st.p = +sel.value; st.item = 0; build(); });
      app.appendChild(sel);
    }
    var pz = puzzles[st.p];
    if (!pz) return;
    app.appendChild(el('div', { 'class': 'mono' }, t('puzzle') + ': ' + (pz.puzzle || pz.input || '')));
    if (pz.error) { app.appendChild(el('p', { 'class': 'error' }, t('error') + ': ' + pz.error.code + ': ' + pz.error.message)); return; }
    st.items = buildItems(pz);
    app.appendChild(summary(pz));
    var main = el('div', { 'class': 'main' });
    var board = el('div', { 'class': 'board' });
    var controls = el('div', { 'class': 'controls' });
    [['first', '\u23ee', function () { go(0); }], ['prev', '\u25c0', function () { go(st.item - 1); }],
     ['next', '\u25b6', function () { go(st.item + 1); }], ['last', '\u23ed', function () { go(st.items.length - 1); }]].forEach(function (b) {
      var bt = el('button', { id: 'btn-' + b[0], title: t(b[0]) }, b[1] + ' ' + t(b[0]));
      bt.addEventListener('click', b[2]);
      controls.appendChild(bt);
    });
    ui.pos = el('span', { 'class': 'pos', id: 'pos' });
    controls.appendChild(ui.pos);
    var fl = el('label', {});
    var cb = el('input', { type: 'checkbox', id: 'fold' });
    cb.checked = st.fold;
    cb.addEventListener('change', function () { setFold(cb.checked); });
    fl.appendChild(cb);
    fl.appendChild(document.createTextNode(' ' + t('fold')));
    controls.appendChild(fl);
    board.appendChild(controls);
    ui.gridBox = el('div');
    board.appendChild(ui.gridBox);
    ui.text = el('div', { 'class': 'steptext', id: 'steptext' });
    board.appendChild(ui.text);
    ui.branchBar = el('div', { 'class': 'branchbar', id: 'branchbar' });
    board.appendChild(ui.branchBar);
    ui.branches = el('div', { 'class': 'branches', id: 'branches' });
    board.appendChild(ui.branches);
    ui.inner = el('div', { 'class': 'branches inner', id: 'inner' });
    board.appendChild(ui.inner);
    board.appendChild(legend());
    board.appendChild(el('div', { 'class': 'keys' }, t('keys')));
    main.appendChild(board);
    var list = el('div', { 'class': 'steps', id: 'steplist' });
    ui.list = el('ul', {});
    st.items.forEach(function (it, k) {
      var txt;
      if (it.kind === 'start') txt = '0. ' + t('start');
      else if (it.kind === 'end') txt = '\u2713 ' + (pz.solved ? t('solved') : t('stuck'));
      else if (it.kind === 'run') txt = (it.from + 1) + '\u2013' + it.to + ': ' + runText(pz, it);
      else txt = (it.i + 1) + '. ' + stepText(pz.steps[it.i]);
      var li = el('li', { 'class': it.kind === 'run' ? 'run' : '', 'data-item': k }, txt);
      li.addEventListener('click', function () { go(k); });
      ui.list.appendChild(li);
    });
    list.appendChild(ui.list);
    main.appendChild(list);
    app.appendChild(main);
    if (st.item >= st.items.length) st.item = st.items.length - 1;
    show();
  }
  function setFold(on) {
    var pz = puzzles[st.p], it = st.items[st.item], stepIdx = it && it.kind === 'step' ? it.i : it && it.kind === 'run' ? it.from : -1;
    var last = it && it.kind === 'end';
    st.fold = on;
    st.items = buildItems(pz);
    st.item = last ? st.items.length - 1 : stepIdx >= 0 ? itemOfStep(stepIdx) : 0;
    build();
  }
  function go(k) {
    if (k < 0 || k >= st.items.length) return;
    st.item = k;
    st.branch = -2; /* pick the default for the new step */
    st.claim = -1;
    show();
  }
  /* "1-10, 13" from 0-based step indexes */
  function stepNumbers(a) {
    var out = [], i = 0;
    while (i < a.length) {
      var j = i;
      while (j + 1 < a.length && a[j + 1] === a[j] + 1) j++;
      out.push(j > i ? (a[i] + 1) + '-' + (a[j] + 1) : String(a[i] + 1));
      i = j + 1;
    }
    return out.join(', ');
  }
  /* a nested step: the claims (click one to draw its inner steps), then the
   * inner steps, the claim's own highlighted */
  function showInner(s) {
    ui.inner.textContent = '';
    if (!s || !s.inner || !s.inner.length) return;
    var b = s.because && st.claim >= 0 ? s.because[st.claim] : null, mine = {};
    if (b) b.steps.forEach(function (k) { mine[k] = 1; });
    (s.because || []).forEach(function (c, k) {
      var d = el('div', { 'class': 'claim' + (st.claim === k ? ' on' : '') }, c.candidate + ' ' + t('by_steps') + ' ' + stepNumbers(c.steps));
      d.addEventListener('click', function () { st.claim = st.claim === k ? -1 : k; show(); });
      ui.inner.appendChild(d);
    });
    ui.inner.appendChild(el('div', { 'class': 'head' }, t('inner_head')));
    s.inner.forEach(function (inn, k) {
      var txt = (s.inner_reading && s.inner_reading[k]) || inn.text || inn.technique;
      ui.inner.appendChild(el('div', { 'class': 'innerstep' + (mine[k] ? ' on' : '') }, (k + 1) + '. ' + txt));
    });
  }
  function show() {
    var pz = puzzles[st.p], it = st.items[st.item];
    var look = lookOf(pz, it), s = it.kind === 'step' ? pz.steps[it.i] : null;
    var branches = s && s.branches ? s.branches : [];
    if (st.branch === -2 || st.branch >= branches.length) st.branch = branches.length > 1 && (s.links || []).length > 16 ? 0 : -1;
    var br = st.branch >= 0 && branches[st.branch] ? branches[st.branch] : null;
    ui.gridBox.textContent = '';
    ui.gridBox.appendChild(drawGrid(pz, stateIndex(pz, it), look, br));
    ui.pos.textContent = t('step') + ' ' + st.item + ' ' + t('of') + ' ' + (st.items.length - 1);
    var txt;
    if (it.kind === 'start') txt = t('start');
    else if (it.kind === 'end') txt = (pz.solved ? t('solved') : t('stuck')) + ' \u2014 ' + (pz.steps || []).length + ' ' + t('steps');
    else if (it.kind === 'run') txt = runText(pz, it);
    else txt = (it.i + 1) + '. ' + stepText(s) + '   [' + (s.tname || s.name || s.technique) + ', ' + fmt1(s.difficulty) + ']';
    ui.text.textContent = txt;
    ui.branchBar.textContent = '';
    ui.branches.textContent = '';
    if (branches.length > 1) {
      ui.branchBar.appendChild(document.createTextNode(t('branch') + ': '));
      var ball = el('button', { 'class': st.branch < 0 ? 'on' : '' }, t('all'));
      ball.addEventListener('click', function () { st.branch = -1; show(); });
      ui.branchBar.appendChild(ball);
      branches.forEach(function (b, k) {
        var bt = el('button', { 'class': st.branch === k ? 'on' : '' }, String(k + 1));
        bt.addEventListener('click', function () { st.branch = k; show(); });
        ui.branchBar.appendChild(bt);
      });
    }
    if (branches.length > 1 || (branches.length === 1 && s && s.reading && s.reading.indexOf(branches[0][2]) < 0)) {
      branches.forEach(function (b, k) {
        var d = el('div', { 'class': st.branch === k ? 'on' : '' }, (k + 1) + ') ' + b[2] + (b[3] ? '  \u21d2 ' + b[3] : ''));
        d.addEventListener('click', function () { st.branch = k; show(); });
        ui.branches.appendChild(d);
      });
    }
    showInner(s);
    Array.prototype.forEach.call(ui.list.children, function (li, k) { li.classList.toggle('cur', k === st.item); });
    var cur = ui.list.children[st.item];
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'SELECT') return;
    var pz = puzzles[st.p], it = st.items[st.item], s = it && it.kind === 'step' ? pz.steps[it.i] : null;
    var nb = s && s.branches ? s.branches.length : 0;
    switch (e.key) {
      case 'ArrowRight': case 'PageDown': go(st.item + 1); break;
      case 'ArrowLeft': case 'PageUp': go(st.item - 1); break;
      case 'Home': go(0); break;
      case 'End': go(st.items.length - 1); break;
      case 'ArrowDown': if (nb > 1) { st.branch = st.branch + 1 >= nb ? -1 : st.branch + 1; show(); } break;
      case 'ArrowUp': if (nb > 1) { st.branch = st.branch - 1 < -1 ? nb - 1 : st.branch - 1; show(); } break;
      case 'f': setFold(!st.fold); break;
      default: return;
    }
    e.preventDefault();
  });
  /* for tests and curious readers: where the page is */
  window.sudokuReport = {
    info: function () {
      var pz = puzzles[st.p], it = st.items[st.item], s = it && it.kind === 'step' ? pz.steps[it.i] : null;
      var svg = document.getElementById('grid');
      function n(sel) { return svg ? svg.querySelectorAll(sel).length : 0; }
      return {
        puzzles: puzzles.length, item: st.item, items: st.items.length, kind: it && it.kind,
        step: s ? it.i : (it && it.kind === 'run' ? it.from : -1), technique: s ? s.technique : null,
        text: document.getElementById('steptext').textContent, branch: st.branch,
        branches: s && s.branches ? s.branches.length : 0, links: n('path.link'), strong: n('path.link.strong'),
        weak: n('path.link.weak'), elims: n('circle.elim'), places: n('circle.place'), roles: n('circle.role'),
        alsSets: (function () { var k = {}; if (svg) Array.prototype.forEach.call(svg.querySelectorAll('rect.als-set'), function (r) { k[r.getAttribute('class')] = 1; }); return Object.keys(k).length; })(),
        houses: n('rect.house'), fold: st.fold,
        claims: s && s.because ? s.because.length : 0, claim: st.claim,
        inner: s && s.inner ? s.inner.length : 0, innerElims: n('circle.inner-elim'),
        innerPlaces: n('circle.inner-place'), claimRings: n('circle.claim')
      };
    },
    go: go,
    claim: function (k) { st.claim = k; show(); },
    find: function (pred) { /* first item whose step's technique matches */
      var pz = puzzles[st.p];
      for (var k = 0; k < st.items.length; k++) { var it = st.items[k]; if (it.kind === 'step' && pred(pz.steps[it.i].technique, pz.steps[it.i])) return k; }
      return -1;
    },
    hover: function (c) { return cellInfo(stateOf(puzzles[st.p].states[stateIndex(puzzles[st.p], st.items[st.item])]), puzzles[st.p], c); }
  };
  build();
})();
