import { useContent } from '../content/context';
import { SocialLinks } from '../components/social-links';

/** The page's footer: title, blurb, profile links and the copyright, whose name leads to the owner's dashboard. */
export function Footer() {
  const { profile } = useContent();
  return (
    <footer className="border-t border-gray-800 bg-gray-950 py-12">
      <div className="container-page grid gap-8 md:grid-cols-[minmax(0,1fr)_auto] md:items-center">
        <div>
          <h2 className="text-xl font-bold">Portfolio</h2>
          <p className="mt-2 max-w-[60ch] text-gray-400">
            A full-stack developer building fast, accessible websites and apps with React, Tailwind CSS and JavaScript.
          </p>
        </div>
        <SocialLinks kinds={['github', 'linkedin', 'twitter', 'email']} label="Elsewhere" />
      </div>
      <div className="container-page mt-10 border-t border-gray-800 pt-6 text-sm text-gray-400">
        <p>
          &copy; 2025{' '}
          <a href="/dashboard" className="link">
            {profile.name}
          </a>
          . All rights reserved.
        </p>
      </div>
    </footer>
  );
}
