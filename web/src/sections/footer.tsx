import { useContent } from '../content/context';
import { SocialLinks } from '../components/social-links';
import { useTexts } from '../i18n/locale';

/** The page's footer: title, blurb, profile links and the copyright, whose name leads to the owner's dashboard. */
export function Footer() {
  const { profile } = useContent();
  const texts = useTexts();
  return (
    <footer className="border-t border-gray-800 bg-gray-950 py-10">
      <div className="container-page grid gap-8 md:grid-cols-[minmax(0,1fr)_auto] md:items-center">
        <div>
          <h2 className="text-xl font-bold">{texts.t('footer.title')}</h2>
          <p className="mt-2 max-w-[60ch] text-gray-400">{texts.t('footer.blurb')}</p>
        </div>
        <SocialLinks kinds={['github', 'linkedin', 'twitter', 'email']} label={texts.t('footer.elsewhere')} />
      </div>
      <div className="container-page mt-8 border-t border-gray-800 pt-6 text-sm text-gray-400">
        <p>
          {texts.rich('footer.copyright', {
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
