import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of the owner's ways in (the login and reset pages): the site's name, a card with the logo, a heading and a line. */
export function AuthCard({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-gray-950">
      <header className="container-page flex h-16 items-center">
        <Link to="/" className="rounded-md text-lg font-bold tracking-[0.2em] text-white hover:text-blue-300">
          PORTFOLIO
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-5 pt-8 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-md rounded-xl border border-gray-800 bg-gray-900/60 p-6 shadow-xl shadow-black/30 sm:p-8">
          <img src="/favicon.svg" alt="Portfolio logo" width={48} height={48} className="mx-auto size-12" />
          <h1 className="mt-5 text-center text-2xl font-bold text-white">{title}</h1>
          <p className="mt-2 text-center text-sm text-gray-400">{lead}</p>
          {children}
        </div>
      </main>
    </div>
  );
}

/** A failure, read out as it appears. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg border border-red-400/40 bg-red-950/40 px-4 py-3 text-sm text-red-200">
      {children}
    </p>
  );
}
