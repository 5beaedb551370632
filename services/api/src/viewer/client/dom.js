// @ts-check
// Element builders. Data only ever reaches the page as text nodes or attribute values — never as markup — so a
// payload or a reason holding `<img onerror=…>` is shown, not run. Nothing in the viewer uses innerHTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * @typedef {string | number | boolean | null | undefined} AttributeValue
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/**
 * @param {Element} element
 * @param {Record<string, AttributeValue>} attributes
 * @param {readonly Child[]} children
 */
function fill(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * An HTML element with attributes and children (strings become text nodes).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttributeValue>} [attributes]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  fill(element, attributes, children);
  return element;
}

/**
 * An SVG element with attributes and children (strings become text nodes).
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttributeValue>} [attributes]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  fill(element, attributes, children);
  return element;
}

/**
 * Replaces the children of `parent`.
 * @param {Element} parent
 * @param {...Child} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  fill(parent, {}, children);
}
