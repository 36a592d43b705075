import { Icon, type IconName } from '../components/icon';
import { useContent } from '../content/context';
import { ContactForm } from '../components/contact-form';
import { SocialLinks } from '../components/social-links';

const mapsUrl = (query: string) => `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;

/** 'Get in Touch': how to reach the owner directly, and the contact form. */
export function Contact() {
  const { contact, profile } = useContent();
  const rows: { icon: IconName; label: string; text: string; href: string; external: boolean }[] = [
    { icon: 'mail', label: 'Email', text: contact.email, href: `mailto:${contact.email}`, external: false },
    { icon: 'phone', label: 'Phone', text: contact.phone.display, href: `tel:${contact.phone.dial}`, external: false },
    { icon: 'map-pin', label: 'Location', text: profile.location.display, href: mapsUrl(profile.location.mapsQuery), external: true },
  ];

  return (
    <section id="contact" aria-labelledby="contact-title" className="section bg-gray-900">
      <div className="container-page">
        <h2 id="contact-title" className="section-title">
          Get in Touch
        </h2>
        <p className="lead mt-6">
          Have a project in mind, a role to fill, or a suggestion about my work? Send me a message: I read every one and
          usually reply within a day or two.
        </p>
        <div className="mt-12 grid gap-8 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="card p-6 md:p-8">
            <h3 className="text-xl font-semibold">Contact Information</h3>
            <ul className="mt-6 grid gap-5">
              {rows.map(({ icon, label, text, href, external }) => (
                <li key={label} className="flex items-center gap-4">
                  <span className="icon-btn pointer-events-none text-blue-300" aria-hidden="true">
                    <Icon name={icon} />
                  </span>
                  <div className="min-w-0">
                    <p className="text-sm text-gray-400">{label}</p>
                    <a
                      href={href}
                      className="link inline-flex min-h-11 items-center font-medium break-all"
                      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                    >
                      {text}
                    </a>
                  </div>
                </li>
              ))}
            </ul>
            <h3 className="mt-8 text-lg font-semibold">Follow Me</h3>
            <div className="mt-4">
              <SocialLinks kinds={['github', 'linkedin', 'twitter']} label="Follow Me" />
            </div>
          </div>
          <div className="rounded-xl border border-gray-800 bg-gray-800/30 p-6 md:p-8">
            <ContactForm />
          </div>
        </div>
      </div>
    </section>
  );
}
