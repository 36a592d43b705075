#!/usr/bin/env node
// Checks the one-way shape of the server's modules: reads every .rs file under server/src, resolves
// each `use crate::…`, `use super::…`, `use self::…` (grouped ones too) and each inline path such as
// `crate::x::y(…)` or `super::z::…` to the file it names (module = file: foo.rs or foo/mod.rs), and
// prints every import cycle between files (a strongly connected component of more than one file) and
// every import that points upward (a file importing one of its ancestor modules' files, such as
// `crate::http::…` or `super::…` from inside http/); then the same between top-level modules (each
// file counted as its module), where a cycle runs through several files and no file cycle shows
// it. It exits 1 when there is a file cycle, a module cycle not on KNOWN_MODULE_CYCLES, or an
// upward import; with --cycles-only only a cycle fails (upward imports are listed); with --report
// nothing fails, and every module-to-module import is listed. It also draws the modules by layer
// from those imports (--layers prints the drawing) and fails when docs/architecture.md shows
// another one.
//
//   node scripts/check-imports.mjs [--report | --cycles-only | --layers] [--root server/src]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const reportOnly = args.includes('--report');
const cyclesOnly = args.includes('--cycles-only');
const rootArg = args.indexOf('--root');
const repo = join(fileURLToPath(import.meta.url), '..', '..');
const root = rootArg >= 0 ? args[rootArg + 1] : join(repo, 'server', 'src');
// main.rs names the library by its crate name rather than `crate`.
const CRATE_NAME = 'portfolio';

function rustFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...rustFiles(path));
    else if (name.endsWith('.rs')) out.push(path);
  }
  return out;
}

// The module path a file defines: lib.rs is the crate root, a/mod.rs and a.rs are `a`, a/b.rs is
// `a::b`. main.rs is the binary crate, above everything, so it gets a path nothing else can name.
function modulePathOf(file) {
  const parts = relative(root, file).split(sep);
  if (parts.length === 1 && parts[0] === 'lib.rs') return [];
  if (parts.length === 1 && parts[0] === 'main.rs') return ['<main>'];
  const last = parts.pop();
  if (last !== 'mod.rs') parts.push(last.slice(0, -3));
  return parts;
}

// Tokens of Rust source without comments, strings or char literals: identifiers, `::` and single
// punctuation characters, each with its line.
function tokenize(src) {
  const tokens = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  const isIdentStart = (c) => /[A-Za-z_]/.test(c);
  const isIdent = (c) => /[A-Za-z0-9_]/.test(c);
  while (i < n) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (src[i] === '\n') line++;
        if (src[i] === '/' && src[i + 1] === '*') { depth++; i += 2; }
        else if (src[i] === '*' && src[i + 1] === '/') { depth--; i += 2; }
        else i++;
      }
      continue;
    }
    // Raw strings (r"…", r#"…"#, br#"…"#).
    const raw = /^b?r(#*)"/.exec(src.slice(i, i + 40));
    if (raw && !(i > 0 && isIdent(src[i - 1]))) {
      const close = '"' + raw[1];
      let j = i + raw[0].length;
      const end = src.indexOf(close, j);
      const stop = end < 0 ? n : end + close.length;
      for (; j < stop; j++) if (src[j] === '\n') line++;
      i = stop;
      continue;
    }
    if (c === '"' || (c === 'b' && src[i + 1] === '"' && !(i > 0 && isIdent(src[i - 1])))) {
      i += c === 'b' ? 2 : 1;
      while (i < n && src[i] !== '"') {
        if (src[i] === '\\') i++;
        else if (src[i] === '\n') line++;
        i++;
      }
      i++;
      continue;
    }
    if (c === "'") {
      // A char literal ('a', '\n', '\u{1F600}', '€') or a lifetime ('a): a literal closes
      // right after its one (possibly escaped) character.
      if (src[i + 1] === '\\') {
        let j = i + 2;
        while (j < n && src[j] !== "'") j++;
        i = j + 1;
        continue;
      }
      const cp = src.codePointAt(i + 1);
      const width = cp > 0xffff ? 2 : 1;
      if (src[i + 1 + width] === "'") { i += 2 + width; continue; }
      i++;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i;
      while (j < n && isIdent(src[j])) j++;
      tokens.push({ t: src.slice(i, j), line });
      i = j;
      continue;
    }
    if (c === ':' && src[i + 1] === ':') { tokens.push({ t: '::', line }); i += 2; continue; }
    tokens.push({ t: c, line });
    i++;
  }
  return tokens;
}

// The paths a `use` tree names, each as a list of segments (`self` inside a group is the group's
// own path; renames and globs name the path before them).
function parseUseTree(tokens, start) {
  let i = start;
  const paths = [];
  function tree(prefix) {
    const segs = [...prefix];
    for (;;) {
      const tok = tokens[i];
      if (!tok) return;
      if (tok.t === '{') {
        i++;
        while (tokens[i] && tokens[i].t !== '}') {
          tree(segs);
          if (tokens[i] && tokens[i].t === ',') i++;
        }
        i++;
        return;
      }
      if (tok.t === '*') { i++; paths.push({ segs, alias: null }); return; }
      if (tok.t === 'self' && segs.length === prefix.length && prefix.length > 0) {
        i++;
        let alias = segs[segs.length - 1];
        if (tokens[i] && tokens[i].t === 'as') { alias = tokens[i + 1].t; i += 2; }
        paths.push({ segs, alias });
        return;
      }
      if (/^[A-Za-z_]/.test(tok.t)) {
        segs.push(tok.t);
        i++;
        if (tokens[i] && tokens[i].t === '::') { i++; continue; }
        let alias = tok.t;
        if (tokens[i] && tokens[i].t === 'as') { alias = tokens[i + 1].t; i += 2; }
        paths.push({ segs, alias });
        return;
      }
      if (tok.t === '::') { i++; continue; }
      return;
    }
  }
  tree([]);
  while (tokens[i] && tokens[i].t !== ';') i++;
  return { paths, next: i + 1 };
}

const files = rustFiles(root);
const moduleFile = new Map(); // module path "a::b" -> file
const pathOf = new Map(); // file -> module path segments
for (const file of files) {
  const path = modulePathOf(file);
  pathOf.set(file, path);
  moduleFile.set(path.join('::'), file);
}
// Modules of another crate of the workspace that a module re-exports as its own
// (`pub use portfolio_content::{addresses, clock, domain};` in server/src/lib.rs, the content
// crate's modules in content/mod.rs): each stands for a module of its name there, a leaf, so
// `crate::domain::…` is an import of `domain` rather than of the crate root, and `super::document`
// in content/live.rs one of `content::document` rather than of content/mod.rs.
for (const file of [...files]) {
  const source = readFileSync(file, 'utf8');
  for (const [, crate, names] of source.matchAll(/pub use (portfolio_[a-z_]+)::\{([^}]*)\};/g)) {
    for (const name of names.split(',').map((n) => n.trim()).filter((n) => /^[a-z_]+$/.test(n))) {
      const path = [...pathOf.get(file), name];
      const pseudo = join(root, `<${crate}>`, ...path) + '.rs';
      files.push(pseudo);
      pathOf.set(pseudo, path);
      moduleFile.set(path.join('::'), pseudo);
    }
  }
}

// Each file's references: { from, to, line, text }.
const edges = [];
for (const file of files) {
  if (!statSync(file, { throwIfNoEntry: false })) continue; // a module of another crate
  const tokens = tokenize(readFileSync(file, 'utf8'));
  const filePath = pathOf.get(file);
  // Inline `mod name { … }` blocks: a stack of [module path, brace depth at which it closes].
  const scopes = [[filePath, -1]];
  let depth = 0;
  const current = () => scopes[scopes.length - 1][0];
  // Names this file's `use` items bind to modules (`use crate::contact;` makes `contact::x` a
  // path into contact/), so inline paths through them resolve to the file they name.
  const aliases = new Map();
  // The absolute module path a path names, or null for a path into another crate.
  const absolute = (segs) => {
    const cur = current();
    let base;
    let k = 1;
    if (segs[0] === 'crate' || (segs[0] === CRATE_NAME && filePath[0] === '<main>')) base = [];
    else if (segs[0] === 'self') base = [...cur];
    else if (segs[0] === 'super') {
      base = [...cur];
      k = 0;
      while (segs[k] === 'super') { base.pop(); k++; }
    } else if (moduleFile.has([...cur, segs[0]].join('::'))) {
      // A child module named without `self::`.
      base = [...cur];
      k = 0;
    } else if (aliases.has(segs[0])) base = aliases.get(segs[0]);
    else return null;
    return [...base, ...segs.slice(k)];
  };
  // The file an absolute path names: the longest prefix that is a module (an inline module is
  // its file's).
  const fileNamed = (abs) => {
    for (let len = abs.length; len >= 0; len--) {
      const target = moduleFile.get(abs.slice(0, len).join('::'));
      if (target) return target;
    }
    return null;
  };
  const resolve = (segs, line) => {
    const abs = absolute(segs);
    if (!abs) return null;
    const target = fileNamed(abs);
    if (target && target !== file) edges.push({ from: file, to: target, line, text: segs.join('::') });
    return abs;
  };
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok.t === '{') { depth++; continue; }
    if (tok.t === '}') {
      depth--;
      if (scopes.length > 1 && scopes[scopes.length - 1][1] === depth) scopes.pop();
      continue;
    }
    if (tok.t === 'mod' && tokens[i + 1] && tokens[i + 2] && tokens[i + 2].t === '{') {
      scopes.push([[...current(), tokens[i + 1].t], depth]);
      moduleFile.set([...current()].join('::'), file);
      depth++;
      i += 2;
      continue;
    }
    if (tok.t === 'use' && (i === 0 || tokens[i - 1].t !== '::')) {
      const { paths, next } = parseUseTree(tokens, i + 1);
      for (const { segs, alias } of paths) {
        const abs = resolve(segs, tok.line);
        if (abs && alias && alias !== '_' && moduleFile.has(abs.join('::'))) aliases.set(alias, abs);
      }
      i = next - 1;
      continue;
    }
    if (/^[A-Za-z_]/.test(tok.t) && tokens[i + 1] && tokens[i + 1].t === '::' && absolute([tok.t])) {
      const prev = tokens[i - 1];
      if (prev && (prev.t === '::' || prev.t === '$' || prev.t === 'in')) continue;
      const segs = [tok.t];
      let j = i + 1;
      while (tokens[j] && tokens[j].t === '::' && tokens[j + 1] && /^[A-Za-z_]/.test(tokens[j + 1].t)) {
        segs.push(tokens[j + 1].t);
        j += 2;
      }
      resolve(segs, tok.line);
      i = j - 1;
    }
  }
}

const rel = (file) => relative(root, file).split(sep).join('/');

// Tarjan's strongly connected components over the file graph.
// A child naming its own ancestor is listed below as an upward import rather than counted in a
// cycle with the parent that declares it; every other import is an edge.
const isAncestor = (a, b) => a.length < b.length && a.every((seg, k) => seg === b[k]);
const upwardEdge = (e) => isAncestor(pathOf.get(e.to), pathOf.get(e.from));
const graph = new Map(files.map((f) => [f, new Set()]));
for (const e of edges) if (!upwardEdge(e)) graph.get(e.from).add(e.to);
let index = 0;
const idx = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
const components = [];
function strongConnect(v) {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v)) {
    if (!idx.has(w)) {
      strongConnect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) {
      low.set(v, Math.min(low.get(v), idx.get(w)));
    }
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1) components.push(comp.sort());
  }
}
for (const f of files) if (!idx.has(f)) strongConnect(f);

// One line per importing file and imported file, with the first line that imports it.
function uniqueEdges(list) {
  const seen = new Map();
  for (const e of list) {
    const key = `${e.from}\0${e.to}`;
    if (!seen.has(key)) seen.set(key, { ...e, count: 0 });
    seen.get(key).count++;
  }
  return [...seen.values()];
}
const describe = (e) => `    ${rel(e.from)}:${e.line} -> ${rel(e.to)}  (${e.text}${e.count > 1 ? `, ${e.count} references` : ''})`;

components.sort((a, b) => b.length - a.length || rel(a[0]).localeCompare(rel(b[0])));
console.log(`check-imports: ${files.length} files, ${uniqueEdges(edges).length} file-to-file imports`);
console.log(`${components.length} import cycle(s)`);
for (const comp of components) {
  const members = new Set(comp);
  console.log(`  cycle of ${comp.length} files: ${comp.map(rel).join(', ')}`);
  for (const e of uniqueEdges(edges.filter((e) => !upwardEdge(e) && members.has(e.from) && members.has(e.to)))) {
    console.log(describe(e));
  }
}

const upward = uniqueEdges(edges.filter(upwardEdge));
console.log(`${upward.length} upward import(s) (a file importing an ancestor module's file)`);
for (const e of upward) console.log(describe(e));

// The same between modules: each file counts as its top-level module (`http/api/links.rs` is
// `http`; the crate root and main.rs stand apart), so a cycle that runs through several files of
// each module, which no file-level cycle shows, is found here.
const topModule = (file) => {
  const path = pathOf.get(file);
  return path.length === 0 ? '<crate root>' : path[0];
};
const moduleEdges = new Map(); // "from\0to" -> the file imports between them
for (const e of edges) {
  const from = topModule(e.from);
  const to = topModule(e.to);
  if (from === to || from === '<crate root>' || from === '<main>') continue;
  const key = `${from}\0${to}`;
  if (!moduleEdges.has(key)) moduleEdges.set(key, []);
  moduleEdges.get(key).push(e);
}
const moduleGraph = new Map();
for (const key of moduleEdges.keys()) {
  const [from, to] = key.split('\0');
  if (!moduleGraph.has(from)) moduleGraph.set(from, new Set());
  if (!moduleGraph.has(to)) moduleGraph.set(to, new Set());
  moduleGraph.get(from).add(to);
}
// Modules that reach each other both ways form one cycle (the graph is small: a search from each).
const reach = (start) => {
  const seen = new Set();
  const todo = [...(moduleGraph.get(start) ?? [])];
  while (todo.length) {
    const next = todo.pop();
    if (seen.has(next)) continue;
    seen.add(next);
    todo.push(...(moduleGraph.get(next) ?? []));
  }
  return seen;
};
const reaches = new Map([...moduleGraph.keys()].map((m) => [m, reach(m)]));
const moduleCycles = [];
const placed = new Set();
for (const m of [...moduleGraph.keys()].sort()) {
  if (placed.has(m)) continue;
  const cycle = [...moduleGraph.keys()].filter((o) => o === m ? reaches.get(m).has(m) : reaches.get(m).has(o) && reaches.get(o).has(m)).sort();
  if (cycle.length > 1) {
    cycle.forEach((o) => placed.add(o));
    moduleCycles.push(cycle);
  }
}
// The cycles known when this check came and still to be undone (issue 45), each by its modules:
// a new cycle, or a known one that grows, fails; a known one that is gone must leave this list.
const KNOWN_MODULE_CYCLES = [];
const known = (cycle) => KNOWN_MODULE_CYCLES.some((k) => k.join() === cycle.join());
const moduleLine = (from, to) => {
  const list = uniqueEdges(moduleEdges.get(`${from}\0${to}`));
  const first = list[0];
  return `    ${from} -> ${to}: ${list.length} file import(s), e.g. ${rel(first.from)}:${first.line} (${first.text})`;
};
console.log(`${moduleCycles.length} module cycle(s) (${moduleCycles.filter(known).length} known, to be undone)`);
for (const cycle of moduleCycles) {
  console.log(`  ${known(cycle) ? 'known ' : ''}cycle of modules: ${cycle.join(', ')}`);
  const members = new Set(cycle);
  for (const key of [...moduleEdges.keys()].sort()) {
    const [from, to] = key.split('\0');
    if (members.has(from) && members.has(to)) console.log(moduleLine(from, to));
  }
}
const stale = KNOWN_MODULE_CYCLES.filter((k) => !moduleCycles.some((c) => c.join() === k.join()));
for (const k of stale) console.log(`  a known cycle no longer found (remove it from KNOWN_MODULE_CYCLES): ${k.join(', ')}`);
const newCycles = moduleCycles.filter((c) => !known(c));
if (reportOnly) {
  console.log('module imports (from -> to: file imports):');
  for (const key of [...moduleEdges.keys()].sort()) console.log(moduleLine(...key.split('\0')));
}

// The modules by layer, drawn from the edges above: a module's layer is one more than the
// highest of those it imports (the leaves are 0), so each imports only from the layers below it.
// docs/architecture.md shows this drawing between its `module-layers` markers; the check fails
// when the two differ (`--layers` prints it to paste).
let layersDiffer = false;
if (moduleCycles.length === 0) {
  const layerOf = new Map();
  const layer = (m) => {
    if (!layerOf.has(m)) layerOf.set(m, Math.max(-1, ...[...(moduleGraph.get(m) ?? [])].map(layer)) + 1);
    return layerOf.get(m);
  };
  const modules = [...moduleGraph.keys()].sort();
  const top = Math.max(...modules.map(layer));
  const lines = [];
  for (let n = top; n >= 0; n--) {
    for (const m of modules.filter((o) => layer(o) === n)) {
      const below = [...moduleGraph.get(m)].sort();
      lines.push(`${String(n).padStart(2)}  ${m.padEnd(12)}${below.length ? `-> ${below.join(', ')}` : '(imports no module)'}`);
    }
  }
  const drawing = lines.join('\n');
  if (args.includes('--layers')) console.log(drawing);
  const docs = readFileSync(join(repo, 'docs', 'architecture.md'), 'utf8');
  const shown = /<!-- module-layers -->\n```\n([\s\S]*?)\n```\n<!-- \/module-layers -->/.exec(docs)?.[1];
  if (shown !== drawing && !args.includes('--root')) {
    layersDiffer = true;
    console.log('docs/architecture.md shows other module layers than the code has: paste the output of `node scripts/check-imports.mjs --layers` between its module-layers markers');
  }
}

if (!reportOnly && (layersDiffer || components.length > 0 || newCycles.length > 0 || stale.length > 0 || (!cyclesOnly && upward.length > 0))) process.exit(1);
