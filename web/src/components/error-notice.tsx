import type { ReactNode } from 'react';
import { useTexts } from '../i18n/locale';

/**
 * The body of the error pages: the router's heading (the spec's "Unexpected Application Error!"),
 * what happened in plain words, and what the visitor can do. Never the error itself: no message,
 * no stack trace.
 */
export function ErrorNotice({
  label,
  title,
  children,
  actions,
}: {
  /** A short kicker above the heading, e.g. "Error". */
  label: string;
  /** What happened, in one sentence. */
  title: string;
  /** What it means for the visitor. */
  children: ReactNode;
  /** Links and buttons, the first one primary. */
  actions: ReactNode;
}) {
  return (
    <div className="container-page py-20 md:py-28">
      <p className="text-sm font-semibold tracking-widest text-blue-400 uppercase">{label}</p>
      <h1 className="section-title mt-3">{useTexts().t('error.heading')}</h1>
      <p className="mt-8 text-xl font-semibold text-white">{title}</p>
      <div className="lead mt-3">{children}</div>
      <div className="mt-8 flex flex-wrap gap-3">{actions}</div>
    </div>
  );
}
