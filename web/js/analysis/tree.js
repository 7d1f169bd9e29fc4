// The analysis board's tree of variations: a root (the set-up position) and moves under it,
// the first child of each node being its main line. Pure data; the server judges the moves.
// The flat form ({position, nodes: [{parent, move, comment}], comment}) is what the server's
// /api/analysis/sgf and /tree speak and what local storage keeps.

export class VariationTree {
  /// setup: {rule, size, black: [names], white: [names], to_move}
  constructor(setup) {
    this.setup = { rule: setup.rule, size: setup.size, black: [...(setup.black || [])], white: [...(setup.white || [])], to_move: setup.to_move || 'black' };
    this.nodes = [{ id: 0, parent: null, move: null, children: [], comment: null }];
    this.current = 0;
  }

  node(id) {
    return this.nodes[id] || null;
  }

  /// The moves (names) from the root to `id`.
  line(id = this.current) {
    const out = [];
    for (let n = this.node(id); n && n.move; n = this.node(n.parent)) out.push(n.move);
    return out.reverse();
  }

  /// The colour that played the move of node `id` (the root has none).
  colorOf(id) {
    const ply = this.line(id).length;
    if (!ply) return null;
    const first = this.setup.to_move;
    const other = first === 'black' ? 'white' : 'black';
    return ply % 2 === 1 ? first : other;
  }

  sideToMove(id = this.current) {
    const first = this.setup.to_move;
    const other = first === 'black' ? 'white' : 'black';
    return this.line(id).length % 2 === 0 ? first : other;
  }

  /// The child of `id` playing `move`, or a new one after the existing children.
  play(id, move, comment = null) {
    const n = this.node(id);
    const old = n.children.map((c) => this.node(c)).find((c) => c.move === move);
    if (old) return old.id;
    const child = { id: this.nodes.length, parent: id, move, children: [], comment };
    this.nodes.push(child);
    n.children.push(child.id);
    return child.id;
  }

  /// Moves `id` one place up among its siblings; false at the top.
  promote(id) {
    const n = this.node(id);
    if (!n || n.parent == null) return false;
    const sib = this.node(n.parent).children;
    const i = sib.indexOf(id);
    if (i <= 0) return false;
    [sib[i - 1], sib[i]] = [sib[i], sib[i - 1]];
    return true;
  }

  /// Makes the line to `id` the main line at every fork on the way.
  makeMainLine(id) {
    for (let n = this.node(id); n && n.parent != null; n = this.node(n.parent)) {
      const sib = this.node(n.parent).children;
      sib.splice(sib.indexOf(n.id), 1);
      sib.unshift(n.id);
    }
  }

  /// Removes `id` and everything under it; the current node moves to its parent if it was inside.
  delete(id) {
    const n = this.node(id);
    if (!n || n.parent == null) return;
    const inside = (x) => {
      for (let m = this.node(x); m; m = this.node(m.parent)) if (m.id === id) return true;
      return false;
    };
    if (inside(this.current)) this.current = n.parent;
    const sib = this.node(n.parent).children;
    sib.splice(sib.indexOf(id), 1);
    const drop = [id];
    while (drop.length) {
      const d = this.node(drop.pop());
      drop.push(...d.children);
      this.nodes[d.id] = null;
    }
  }

  isMainLine(id) {
    for (let n = this.node(id); n && n.parent != null; n = this.node(n.parent)) {
      if (this.node(n.parent).children[0] !== n.id) return false;
    }
    return true;
  }

  /// Node ids in pre-order (the root excluded).
  preorder() {
    const out = [];
    const stack = [...this.node(0).children].reverse();
    while (stack.length) {
      const id = stack.pop();
      out.push(id);
      stack.push(...[...this.node(id).children].reverse());
    }
    return out;
  }

  toFlat() {
    const index = new Map();
    const nodes = [];
    for (const id of this.preorder()) {
      const n = this.node(id);
      index.set(id, nodes.length);
      const flat = { parent: n.parent === 0 ? null : index.get(n.parent), move: n.move };
      if (n.comment) flat.comment = n.comment;
      nodes.push(flat);
    }
    const out = { position: { ...this.setup, moves: [] }, nodes };
    if (this.node(0).comment) out.comment = this.node(0).comment;
    return out;
  }

  static fromFlat(flat) {
    const tree = new VariationTree(flat.position);
    tree.node(0).comment = flat.comment || null;
    const ids = [];
    for (const n of flat.nodes || []) {
      const parent = n.parent == null ? 0 : ids[n.parent];
      if (parent === undefined) throw new Error('bad tree');
      ids.push(tree.play(parent, n.move, n.comment || null));
    }
    return tree;
  }
}
