import { useEffect, useId, useRef, useState } from 'react';
import { ChevronDown, Download, KeyRound, LogOut, MailCheck, MonitorX, ShieldCheck } from 'lucide-react';
import { exportUrl } from '../../api/inbox';
import { ChangePasswordDialog } from './change-password-dialog';
import { SecurityDialog } from './security-dialog';

/**
 * The owner's account actions: export, a test e-mail, change password, sign-in and security (the
 * signed-in browsers, passkeys, the second factor), sign out (here or everywhere).
 */
export function AccountMenu({
  email,
  onSignOut,
  onSignOutEverywhere,
  onSendTestEmail,
  busy,
  ask,
  onAsked,
}: {
  email: string;
  /** Opens a place from a link: the security dialog, or the menu at the test e-mail. */
  ask: 'security' | 'notifications' | null;
  onAsked: () => void;
  onSendTestEmail: () => void;
  onSignOut: () => void;
  onSignOutEverywhere: () => void;
  busy: boolean;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const testRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [security, setSecurity] = useState(false);
  const panelId = useId();

  // A place asked for by a link is opened once (the parent then drops the ask).
  const [asked, setAsked] = useState<typeof ask>(null);
  if (ask !== asked) {
    setAsked(ask);
    if (ask === 'security') setSecurity(true);
    if (ask === 'notifications') setOpen(true);
  }
  useEffect(() => {
    if (ask) onAsked();
  }, [ask, onAsked]);
  useEffect(() => {
    if (open && asked === 'notifications') testRef.current?.focus();
    // Only as the menu opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // A disclosure panel: closes on Escape (focus back on its button) and on a click elsewhere.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const item =
    'flex min-h-11 w-full items-center gap-3 rounded-md px-3 text-left text-sm text-gray-200 no-underline hover:bg-gray-800 hover:text-white disabled:opacity-60';

  return (
    <div className="flex items-center gap-2">
      <div ref={wrapperRef} className="relative">
        <button
          ref={buttonRef}
          type="button"
          className="btn btn-ghost px-3"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((shown) => !shown)}
        >
          Account
          <ChevronDown aria-hidden="true" className={`size-4 transition-transform duration-150 ${open ? 'rotate-180' : ''}`} />
        </button>
        <div
          id={panelId}
          hidden={!open}
          className="absolute right-0 z-20 mt-2 w-64 rounded-xl border border-gray-800 bg-gray-900 p-2 shadow-xl shadow-black/40"
        >
          <p className="truncate px-3 py-2 text-xs text-gray-400">
            Signed in as <span className="text-gray-200">{email}</span>
          </p>
          <a className={item} href={exportUrl('csv')} download onClick={() => setOpen(false)}>
            <Download aria-hidden="true" className="size-4" />
            Download messages as CSV
          </a>
          <a className={item} href={exportUrl('json')} download onClick={() => setOpen(false)}>
            <Download aria-hidden="true" className="size-4" />
            Download messages as JSON
          </a>
          <button
            ref={testRef}
            type="button"
            className={item}
            onClick={() => {
              setOpen(false);
              onSendTestEmail();
            }}
          >
            <MailCheck aria-hidden="true" className="size-4" />
            Send a test e-mail
          </button>
          <button
            type="button"
            className={item}
            onClick={() => {
              setOpen(false);
              dialogRef.current?.showModal();
            }}
          >
            <KeyRound aria-hidden="true" className="size-4" />
            Change password
          </button>
          <button
            type="button"
            className={item}
            onClick={() => {
              setOpen(false);
              setSecurity(true);
            }}
          >
            <ShieldCheck aria-hidden="true" className="size-4" />
            Sign-in and security
          </button>
          <button type="button" className={item} disabled={busy} onClick={onSignOutEverywhere}>
            <MonitorX aria-hidden="true" className="size-4" />
            Sign out everywhere
          </button>
        </div>
      </div>
      <button type="button" className="btn btn-secondary px-3 sm:px-5" disabled={busy} onClick={onSignOut}>
        <LogOut aria-hidden="true" className="size-4" />
        {/* Icon only on phones, the name still read out. */}
        <span className="sr-only sm:not-sr-only">Sign out</span>
      </button>
      <ChangePasswordDialog dialogRef={dialogRef} />
      <SecurityDialog open={security} onClose={() => setSecurity(false)} />
    </div>
  );
}
