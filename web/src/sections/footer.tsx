import { useContent } from '../content/context';
import { SocialLinks } from '../components/social-links';
import { useTexts } from '../i18n/locale';

/**
 * The page's footer: the owner's title and line, profile links and the copyright, from the first year to the year of
 * the publish (the server writes it into the page's document), whose name leads to the owner's dashboard.
 */
export function Footer() {
  const { profile, footer } = useContent();
  const years = footer.until && footer.until > footer.since ? `${footer.since}–${footer.until}` : `${footer.since}`;
  const texts = useTexts();
  return (
    <footer className="border-t border-gray-800 bg-gray-950 py-10">
      <div className="container-page grid gap-8 md:grid-cols-[minmax(0,1fr)_auto] md:items-center">
        <div>
          <h2 className="text-xl font-bold">{footer.title}</h2>
          {footer.line && <p className="mt-2 max-w-[60ch] text-gray-400">{footer.line}</p>}
        </div>
        <SocialLinks kinds={['github', 'linkedin', 'twitter', 'email']} label={texts.t('footer.elsewhere')} />
      </div>
      <div className="container-page mt-8 border-t border-gray-800 pt-6 text-sm text-gray-400">
        <p>
          {texts.rich('footer.copyright', {
            years,
            name: (
              <a href="/dashboard" className="link">
                <bdi>{profile.name}</bdi>
              </a>
            ),
          })}
        </p>
      </div>
    </footer>
  );
}
