import { h } from './dom';

export class Widget {
  count = 0;
  #secret = 'x';
  static registry = new Map();

  constructor(root) {
    this.root = root;
  }

  render() {
    return h('div', { class: 'widget' }, String(this.count));
  }

  get size() { return this.count; }
  set size(v) { this.count = v; }
}

export const mount = (root) => new Widget(root).render();

export default function () {
  return null;
}

let counter = 0;
var legacy = function legacyName(a, b) { return a + b; };
const { a, b } = { a: 1, b: 2 };
export const VERSION = '1.0.0';
