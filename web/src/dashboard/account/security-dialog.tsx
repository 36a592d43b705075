import { useEffect, useRef, useState } from 'react';
import { listPasskeys, type Passkey } from '../../api/account';
import { signInMethods } from '../../api/session';
import { passkeysSupported } from '../../auth/passkey';
import { PasskeysSection } from './passkeys-section';
import { useReauth } from './reauth';
import { SecondFactorSection } from './second-factor-section';
import { SessionsSection } from './sessions-section';
import { useTask } from './task';

/**
 * "Sign-in and security", from the account menu: the signed-in browsers, the passkeys and the
 * second factor, in a native modal dialog. Its parts load when it opens and are dropped when it
 * closes, so each opening shows the state of now.
 */
export function SecurityDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (open) dialogRef.current?.showModal();
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="security-title"
      // React passes the re-authentication prompt's close (a dialog inside this one) up its tree.
      onClose={(event) => event.target === event.currentTarget && onClose()}
      className="m-auto max-h-[calc(100dvh-2.5rem)] w-[calc(100%-2.5rem)] max-w-xl overflow-y-auto rounded-xl border border-gray-800 bg-gray-900 p-6 text-gray-300 shadow-2xl shadow-black/50 backdrop:bg-black/70"
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id="security-title" className="text-xl font-bold text-white">
          Sign-in and security
        </h2>
        <button type="button" className="btn btn-ghost px-3" onClick={() => dialogRef.current?.close()}>
          Close
        </button>
      </div>
      {open && <SecurityParts />}
    </dialog>
  );
}

function SecurityParts() {
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [available, setAvailable] = useState(false);
  const load = useTask();
  const { guard, prompt } = useReauth(available && (passkeys?.length ?? 0) > 0);

  useEffect(() => {
    void load.run(async () => {
      const [methods, list] = await Promise.all([signInMethods(), listPasskeys()]);
      setAvailable(methods.passkeys && passkeysSupported());
      setPasskeys(list);
    });
    // Loaded once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="mt-5 space-y-7">
      <SessionsSection />
      <PasskeysSection
        passkeys={passkeys}
        setPasskeys={(update) => setPasskeys((list) => update(list ?? []))}
        available={available}
        guard={guard}
      />
      <SecondFactorSection guard={guard} />
      {load.error && (
        <p role="alert" className="field-error">
          {load.error}
        </p>
      )}
      {prompt}
    </div>
  );
}
