/**
 * Leaves out of the landing page's inline stylesheet the custom properties nothing on the page
 * reads: Beasties keeps the rules the HTML uses, but every theme variable (`--color-blue-950`,
 * each with a `lab()` twin that compresses badly), every `@property` and the fallback that
 * declares them all for browsers without `@property` are kept whatever the rules left need.
 *
 * A property stays when a kept rule reads it (in a declaration's value: `var(--color-blue-500)`),
 * when the page's HTML names it, or when a property that stays names it in its value
 * (`--default-font-family: var(--font-sans)`); one that rules only set (the light scheme's
 * colours for states drawn later) is not read here. The whole stylesheet, with every property,
 * comes with the lazily loaded sections, so nothing a later state uses is lost.
 */
import postcss from 'postcss';

const NAME = /--[\w-]+/g;

/** Whether a declaration only defines properties: the theme, the `@property` fallback, or `@property`. */
function definesOnly(node) {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type !== 'atrule') continue;
    if (parent.name === 'property') return true;
    if (parent.name === 'layer' && (parent.params === 'theme' || parent.params === 'properties')) return true;
  }
  return false;
}

/**
 * @param {string} css the inline stylesheet
 * @param {string} html the markup it styles (its `style` attributes may name properties)
 * @returns {{ css: string, removed: string[] }} the stylesheet without the unused properties, and their names
 */
export function withoutUnusedProperties(css, html) {
  const root = postcss.parse(css);
  const used = new Set(html.match(NAME) ?? []);
  const definitions = [];
  root.walkDecls((decl) => {
    if (definesOnly(decl)) {
      if (decl.prop.startsWith('--')) definitions.push(decl);
    } else {
      for (const name of decl.value.match(NAME) ?? []) used.add(name);
    }
  });
  for (let grew = true; grew; ) {
    grew = false;
    for (const decl of definitions) {
      if (!used.has(decl.prop)) continue;
      for (const name of decl.value.match(NAME) ?? []) {
        if (!used.has(name)) grew = used.add(name) !== undefined;
      }
    }
  }
  const removed = new Set();
  for (const decl of definitions) {
    if (!used.has(decl.prop)) {
      removed.add(decl.prop);
      decl.remove();
    }
  }
  root.walkAtRules('property', (rule) => {
    if (!used.has(rule.params.trim())) {
      removed.add(rule.params.trim());
      rule.remove();
    }
  });
  // Rules and blocks left empty go too, innermost first.
  for (let emptied = true; emptied; ) {
    emptied = false;
    root.walk((node) => {
      if ((node.type === 'rule' || node.type === 'atrule') && node.nodes?.length === 0) {
        node.remove();
        emptied = true;
      }
    });
  }
  return { css: root.toString(), removed: [...removed].sort() };
}
