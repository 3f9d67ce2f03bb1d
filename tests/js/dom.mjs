// The browser globals the page's modules touch, as a small stand-in: elements keep their
// attributes and children, so that a test reads an element's text (textContent) and attributes.
class Node {
  constructor() {
    this.childNodes = [];
  }

  append(...nodes) {
    this.childNodes.push(...nodes);
  }

  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }

  set textContent(text) {
    this.childNodes = [new Text(text)];
  }
}

class Text extends Node {
  constructor(text) {
    super();
    this.text = String(text);
  }

  get textContent() {
    return this.text;
  }
}

class Element extends Node {
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.attributes = {};
    this.className = "";
    this.listeners = {};
    this.style = { setProperty() {} };
    this.dataset = {};
  }

  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }

  getAttribute(name) {
    return name in this.attributes ? this.attributes[name] : null;
  }

  addEventListener(kind, fn) {
    this.listeners[kind] = fn;
  }

  replaceChildren(...nodes) {
    this.childNodes = nodes;
  }
}

const memory = new Map();
globalThis.Node = Node;
globalThis.HTMLElement = Element;
globalThis.document = {
  createElement: (tag) => new Element(tag),
  createElementNS: (_ns, tag) => new Element(tag),
  createTextNode: (text) => new Text(text),
  getElementById: () => null,
  querySelector: () => null,
  querySelectorAll: () => [],
  body: new Element("body"),
  documentElement: new Element("html"),
};
globalThis.window = globalThis;
globalThis.localStorage = {
  getItem: (k) => (memory.has(k) ? memory.get(k) : null),
  setItem: (k, v) => memory.set(k, String(v)),
  removeItem: (k) => memory.delete(k),
};
if (!globalThis.location) globalThis.location = { assign() {}, origin: "http://localhost", pathname: "/" };
if (!globalThis.navigator) globalThis.navigator = { language: "en-US", languages: ["en-US"] };
