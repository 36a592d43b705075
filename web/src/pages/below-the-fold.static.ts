/**
 * The render bundle's `./below-the-fold`: the same sections, imported statically, so
 * `renderToString` draws them inside the same <Suspense> boundary (and its <!--$--> markers)
 * that the browser hydrates once the lazy chunk arrives.
 */
export { default as BelowTheFold } from './home-below-the-fold';
