import type { ReactNode } from 'react';
import { EmailAddress } from '../components/email-address';
import { Icon, type IconName } from '../components/icon';
import { useContent } from '../content/context';
import { ContactForm } from '../components/contact-form';
import { SocialLinks } from '../components/social-links';
import { addEnglish, useTexts } from '../i18n/locale';
import englishTexts from '../i18n/en.json?contact&part';
import { SectionHeading } from './section-heading';

addEnglish(englishTexts);

const mapsUrl = (query: string) => `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;

/** 'Get in Touch': how to reach the owner directly, and the contact form. */
export function Contact() {
  const { contact, profile, sections } = useContent();
  const texts = useTexts();
  // `property`: the row's class as a property of the owner's h-card, which the page is (scripts/prerender.mjs).
  // `ltr`: an address or a number, read left to right on a right-to-left page too.
  const rows: { icon: IconName; label: string; text: ReactNode; href: string; external: boolean; property?: string; ltr?: boolean }[] = [
    {
      icon: 'mail',
      label: texts.t('contact.email'),
      text: <EmailAddress address={contact.email} />,
      href: `mailto:${contact.email}`,
      external: false,
      property: 'u-email',
      ltr: true,
    },
    { icon: 'phone', label: texts.t('contact.phone'), text: contact.phone.display, href: `tel:${contact.phone.dial}`, external: false, ltr: true },
    {
      icon: 'map-pin',
      label: texts.t('contact.location'),
      text: profile.location.display,
      href: mapsUrl(profile.location.mapsQuery),
      external: true,
      property: 'p-adr',
    },
  ];

  return (
    <section id="contact" aria-labelledby="contact-title" className="section bg-gray-900">
      <div className="container-page">
        <SectionHeading id="contact-title" text={sections.contact} />
        <div className="mt-8 grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="card p-6 md:p-8">
            <h3 className="text-xl font-semibold">{texts.t('contact.info')}</h3>
            <ul className="mt-6 grid gap-5">
              {rows.map(({ icon, label, text, href, external, property, ltr }) => (
                <li key={label} className="flex items-center gap-4">
                  <span className="icon-btn pointer-events-none text-blue-300" aria-hidden="true">
                    <Icon name={icon} />
                  </span>
                  <div className="min-w-0">
                    <p className="text-sm text-gray-400">{label}</p>
                    <a
                      href={href}
                      dir={ltr ? 'ltr' : undefined}
                      className={`${property ? `${property} ` : ''}link inline-flex min-h-11 items-center font-medium [overflow-wrap:anywhere]`}
                      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                    >
                      {/* One flex item, so that the text wraps only where it may (an e-mail before its @). */}
                      <span>{text}</span>
                    </a>
                  </div>
                </li>
              ))}
            </ul>
            <h3 className="mt-6 text-lg font-semibold">{texts.t('contact.follow')}</h3>
            <div className="mt-4">
              <SocialLinks kinds={['github', 'linkedin', 'twitter']} label={texts.t('contact.follow')} />
            </div>
          </div>
          <div className="card p-6 md:p-8">
            <ContactForm responseTime={contact.responseTime} />
          </div>
        </div>
      </div>
    </section>
  );
}
