import { Icon } from './icon';
import { useContent } from '../content/context';
import { useTexts } from '../i18n/locale';

export type SocialKind = 'github' | 'linkedin' | 'twitter' | 'email';

/**
 * A row of 44 px icon links to the owner's profiles; each has an accessible name. The profiles
 * are the owner's own: `rel="me"`, which Mastodon's and IndieAuth's verification read.
 */
export function SocialLinks({ kinds, label }: { kinds: readonly SocialKind[]; label: string }) {
  const { profile, contact, social } = useContent();
  const texts = useTexts();
  const link = (kind: SocialKind) => social.find((item) => item.id === kind);
  const url = (kind: SocialKind) => (kind === 'email' ? `mailto:${contact.email}` : link(kind)?.url);
  return (
    <ul aria-label={label} className="flex flex-wrap gap-3">
      {kinds.map((kind) => {
        const external = kind !== 'email';
        const href = url(kind);
        // A profile the owner does not list is left out.
        if (!href) return null;
        return (
          <li key={kind}>
            <a
              className="icon-btn"
              href={href}
              data-track={`social:${kind}`}
              aria-label={
                // The site as the owner names it (the document's label).
                kind === 'email' ? texts.t('social.email', { name: profile.name }) : texts.t('social.on', { name: profile.name, site: link(kind)!.label })
              }
              {...(external ? { target: '_blank', rel: 'me noopener noreferrer' } : {})}
            >
              <Icon name={kind === 'email' ? 'mail' : kind} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
