import { Icon } from './icon';
import { profile } from '../content/profile';

export type SocialKind = 'github' | 'linkedin' | 'twitter' | 'email';

const NAMES = { github: 'GitHub', linkedin: 'LinkedIn', twitter: 'X (Twitter)', email: 'Email' } as const;

/** A row of 44 px icon links to the owner's profiles; each has an accessible name. */
export function SocialLinks({ kinds, label }: { kinds: readonly SocialKind[]; label: string }) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-3">
      {kinds.map((kind) => {
        const external = kind !== 'email';
        const href = kind === 'email' ? `mailto:${profile.email}` : profile.links[kind];
        return (
          <li key={kind}>
            <a
              className="icon-btn"
              href={href}
              data-track={`social:${kind}`}
              aria-label={kind === 'email' ? `Email ${profile.name}` : `${profile.name} on ${NAMES[kind]}`}
              {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
            >
              <Icon name={kind === 'email' ? 'mail' : kind} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
