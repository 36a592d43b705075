import { useMediaQuery } from './use-media-query';

/** Whether the visitor asked for reduced motion (false until hydrated). */
export function useReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
