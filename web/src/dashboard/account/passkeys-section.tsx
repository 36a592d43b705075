import { useState, type FormEvent } from 'react';
import {
  finishPasskeyRegistration,
  removePasskey,
  renamePasskey,
  startPasskeyRegistration,
  type Passkey,
} from '../../api/account';
import type { Ceremony } from '../../api/session';
import { passkeyProblem } from '../../auth/passkey';
import { fullDate } from '../shared/format';
import { SectionAlert, SectionStatus } from './security-parts';
import { useTask } from './task';

/**
 * The owner's passkeys: each named, with when it was added and last used; rename, remove (after
 * a confirmation and the password or a passkey again), and add one with this device.
 */
export function PasskeysSection({
  passkeys,
  setPasskeys,
  available,
  guard,
}: {
  passkeys: Passkey[] | null;
  setPasskeys: (update: (list: Passkey[]) => Passkey[]) => void;
  /** Whether this server and this browser can use passkeys at all. */
  available: boolean;
  guard: <T>(action: () => Promise<T>) => Promise<T>;
}) {
  const task = useTask();
  const [status, setStatus] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  function onAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    setStatus(null);
    void task.run(async () => {
      const { challengeId, options } = await guard(() => startPasskeyRegistration(name));
      let credential;
      try {
        credential = await createPasskey(options);
      } catch (cause) {
        // The authenticator holds one of the passkeys already (they are excluded).
        if (cause instanceof DOMException && cause.name === 'InvalidStateError') throw new Error('This device already holds a passkey for this site.');
        const problem = passkeyProblem(cause);
        if (problem) throw new Error(problem);
        return;
      }
      const added = await finishPasskeyRegistration(challengeId, credential);
      setPasskeys((list) => [...list, added]);
      form.reset();
      setStatus(`Passkey "${added.name}" added.`);
    });
  }

  function onRename(event: FormEvent<HTMLFormElement>, passkey: Passkey) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    void task.run(async () => {
      const renamed = await renamePasskey(passkey.id, name);
      setPasskeys((list) => list.map((other) => (other.id === renamed.id ? renamed : other)));
      setRenaming(null);
      setStatus(`Renamed to "${renamed.name}".`);
    });
  }

  function onRemove(passkey: Passkey) {
    setStatus(null);
    void task.run(async () => {
      await guard(() => removePasskey(passkey.id));
      setPasskeys((list) => list.filter((other) => other.id !== passkey.id));
      setRemoving(null);
      setStatus(`Passkey "${passkey.name}" removed.`);
    });
  }

  return (
    <section aria-labelledby="passkeys-title">
      <h3 id="passkeys-title" className="text-base font-semibold text-white">
        Passkeys
      </h3>
      <p className="mt-1 text-sm text-gray-400">Sign in with your device's screen lock instead of the password and a code.</p>
      {passkeys && passkeys.length === 0 && <p className="mt-3 text-sm text-gray-300">No passkeys yet.</p>}
      <ul className="mt-3 space-y-2" aria-busy={passkeys === null}>
        {passkeys?.map((passkey) => (
          <li key={passkey.id} className="rounded-lg border border-gray-800 px-3 py-2 text-sm">
            {renaming === passkey.id ? (
              <form className="flex flex-wrap items-end gap-2" onSubmit={(event) => onRename(event, passkey)}>
                <div className="min-w-0 flex-1">
                  <label htmlFor={`rename-${passkey.id}`} className="field-label">
                    New name for {passkey.name}
                  </label>
                  <input id={`rename-${passkey.id}`} name="name" required maxLength={64} defaultValue={passkey.name} autoFocus className="field-input" />
                </div>
                <button type="submit" className="btn btn-primary px-3" disabled={task.busy}>
                  Save
                </button>
                <button type="button" className="btn btn-ghost px-3" onClick={() => setRenaming(null)}>
                  Cancel
                </button>
              </form>
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-gray-100">{passkey.name}</p>
                  <p className="text-gray-400">
                    Added {fullDate(passkey.createdAt)}; {passkey.lastUsedAt === null ? 'never used' : `last used ${fullDate(passkey.lastUsedAt)}`}
                  </p>
                </div>
                {removing === passkey.id ? (
                  <>
                    <span className="text-gray-200">Remove it?</span>
                    <button type="button" className="btn btn-secondary px-3 text-red-200" disabled={task.busy} onClick={() => onRemove(passkey)}>
                      Remove {passkey.name}
                    </button>
                    <button type="button" className="btn btn-ghost px-3" onClick={() => setRemoving(null)}>
                      Keep
                    </button>
                  </>
                ) : (
                  <>
                    <button type="button" className="btn btn-ghost px-3" aria-label={`Rename ${passkey.name}`} onClick={() => setRenaming(passkey.id)}>
                      Rename
                    </button>
                    <button type="button" className="btn btn-ghost px-3" aria-label={`Remove ${passkey.name}`} onClick={() => setRemoving(passkey.id)}>
                      Remove
                    </button>
                  </>
                )}
              </div>
            )}
          </li>
        ))}
      </ul>
      {available ? (
        <form className="mt-3 flex flex-wrap items-end gap-2" onSubmit={onAdd}>
          <div className="min-w-0 flex-1">
            <label htmlFor="passkey-name" className="field-label">
              Name of the new passkey <span className="font-normal text-gray-400">(required)</span>
            </label>
            {/* A hint, in italics and prefixed, so it is never taken for a name already typed. */}
            <input id="passkey-name" name="name" required maxLength={64} placeholder="e.g. Work laptop" className="field-input placeholder:italic" />
          </div>
          <button type="submit" className="btn btn-secondary" disabled={task.busy}>
            Add a passkey
          </button>
        </form>
      ) : (
        <p className="mt-3 text-sm text-gray-400">
          Passkeys need the site at a domain name (or localhost) and a browser that supports them.
        </p>
      )}
      <SectionAlert error={task.error} />
      <SectionStatus text={status} />
    </section>
  );
}

/** Asks the browser to make a new passkey for this site; its answer, as JSON for the server. */
export async function createPasskey(options: Ceremony['options']): Promise<PublicKeyCredentialJSON> {
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey as PublicKeyCredentialCreationOptionsJSON);
  const credential = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
  if (!credential) throw new DOMException('', 'NotAllowedError');
  return credential.toJSON();
}
