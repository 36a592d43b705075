import { EmailAddress } from '../components/email-address';
import { Icon } from '../components/icon';
import { useContent } from '../content/context';
import { useTexts } from '../i18n/locale';
import { SectionHeading } from './section-heading';

/** Who the owner is, in two paragraphs, with the resume one click away. */
export function About() {
  const content = useContent();
  const texts = useTexts();
  return (
    <section id="about" aria-labelledby="about-title" className="section bg-gray-900">
      <div className="container-page grid gap-8 md:gap-12 md:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)] md:items-center">
        <div>
          <SectionHeading id="about-title" text={content.sections.about} />
          <p className="p-job-title mt-6 text-xl font-semibold text-blue-300">{content.profile.role}</p>
          {content.about.paragraphs.map((paragraph) => (
            <p key={paragraph} className="lead mt-4">
              {paragraph}
            </p>
          ))}
        </div>
        <div className="card p-6">
          <ul className="grid gap-5">
            <li className="flex items-center gap-4">
              <span className="icon-btn pointer-events-none" aria-hidden="true">
                <Icon name="user" className="size-5" />
              </span>
              <div className="min-w-0">
                <p className="text-sm text-gray-400">{texts.t('about.name')}</p>
                <p className="font-semibold text-white">
                  <bdi>{content.profile.name}</bdi>
                </p>
              </div>
            </li>
            <li className="flex items-center gap-4">
              <span className="icon-btn pointer-events-none" aria-hidden="true">
                <Icon name="mail" className="size-5" />
              </span>
              <div className="min-w-0">
                <p className="text-sm text-gray-400">{texts.t('about.email')}</p>
                <p className="font-semibold [overflow-wrap:anywhere] text-white">
                  <bdi dir="ltr">
                    <EmailAddress address={content.contact.email} />
                  </bdi>
                </p>
              </div>
            </li>
          </ul>
          <a href={content.resume.path} download className="btn btn-primary mt-6 w-full text-center whitespace-normal">
            <Icon name="download" className="size-4" />
            {texts.t('resume.download')}
          </a>
        </div>
      </div>
    </section>
  );
}
