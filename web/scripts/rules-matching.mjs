/**
 * The rules of a stylesheet whose selector matches a pattern, with the at-rules (`@media`,
 * `@supports`, `@layer`) around them: the part of the landing page's stylesheet that only some
 * pages draw (the language switch, right to left), which the server adds to those pages as an
 * inline sheet of its own.
 */
import postcss from 'postcss';

/**
 * @param {string} css a whole stylesheet
 * @param {RegExp} pattern what a kept rule's selector matches
 * @param {boolean} [others] keep the rules that do not match instead (and the at-rules of
 *   declarations, `@font-face`, `@property`): a page's inline sheet without the rules the server adds
 * @returns {string} the matching rules, minified as the stylesheet is
 */
export function rulesMatching(css, pattern, others = false) {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    if (pattern.test(rule.selector) === others) rule.remove();
  });
  // At-rules of declarations (@font-face, @property) have no selector to match; containers left
  // empty go too, innermost first.
  root.walkAtRules((at) => {
    if (!others && at.nodes?.some((node) => node.type === 'decl')) at.remove();
  });
  root.walkComments((comment) => {
    comment.remove();
  });
  let emptied = true;
  while (emptied) {
    emptied = false;
    root.walkAtRules((at) => {
      if (at.nodes && at.nodes.length === 0) {
        at.remove();
        emptied = true;
      }
    });
  }
  root.walk((node) => {
    node.raws.before = '';
    node.raws.after = '';
    node.raws.between = node.type === 'decl' ? ':' : '';
    if ('semicolon' in node.raws) node.raws.semicolon = false;
  });
  return root.toString();
}

/**
 * A sheet without its print rules (`@media print`): the landing's inline sheet, which draws the
 * first screen; the whole stylesheet, which always follows there, brings paper's rules.
 * @param {string} css a whole or picked stylesheet
 * @returns {string} the same sheet, byte for byte, less those rules
 */
export function withoutPrintRules(css) {
  const root = postcss.parse(css);
  root.walkAtRules('media', (at) => {
    if (/(^|[\s,])print\b/.test(at.params)) at.remove();
  });
  return root.toString();
}
