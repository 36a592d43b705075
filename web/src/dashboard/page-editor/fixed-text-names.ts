/**
 * The page's fixed texts (the keys of `web/src/i18n/en.json`) by the names the editor shows them
 * under: where the text is and what it is ("Hero: button to the projects"), never the key. Loaded
 * with the Languages part only (a chunk of its own). A unit test checks that every key has a name.
 */

/** Where on the page, by the key's first segment. */
const PLACES: Record<string, string> = {
  nav: 'Navigation',
  resume: 'Resume',
  hero: 'Hero',
  about: 'About',
  skills: 'Skills',
  projects: 'Projects',
  experience: 'Experience',
  award: 'Award',
  contact: 'Contact',
  social: 'Social links',
  form: 'Contact form',
  wait: 'Contact form',
  footer: 'Footer',
  offer: 'Offer of another language',
  banner: 'In-app browser banner',
  error: 'Error page',
};

/** What the text is, by the key without its first segment (and without a plural's `#form`). */
const WHAT: Record<string, string> = {
  languageName: 'Language menu: the name of this language, in itself',
  'nav.label': 'its name for screen readers',
  'nav.skip': 'link that skips to the content',
  'nav.home': 'link to the top',
  'nav.about': 'link to About',
  'nav.skills': 'link to Skills',
  'nav.projects': 'link to Projects',
  'nav.experience': 'link to Experience',
  'nav.contact': 'link to Contact',
  'nav.openMenu': 'button that opens the menu',
  'nav.closeMenu': 'button that closes the menu',
  'nav.languages': 'name of the list of languages',
  'nav.lightScheme': 'button for the light scheme',
  'resume.download': 'download button',
  'hero.available': 'badge “available”',
  'hero.greeting': 'greeting ({name} is your name)',
  'hero.iAm': 'words before the typewriter',
  'hero.viewWork': 'button to the projects',
  'hero.contact': 'button to the contact form',
  'hero.profiles': 'name of the profile links',
  'about.name': 'label of your name',
  'about.email': 'label of your e-mail',
  'projects.filter': 'name of the filter',
  'projects.all': 'filter “all”',
  'projects.frontend': 'filter “frontend”',
  'projects.backend': 'filter “backend”',
  'projects.fullstack': 'filter “fullstack”',
  'projects.shown': 'how many are shown',
  'projects.technologies': 'name of a project’s technologies',
  'projects.code': 'link to the code',
  'projects.codeOf': 'link to the code, for screen readers',
  'projects.demo': 'link to the live demo',
  'projects.demoOf': 'link to the live demo, for screen readers',
  'experience.work': 'heading of the jobs',
  'experience.education': 'heading of the schools',
  'experience.awardsFor': 'name of an entry’s awards',
  'award.close': 'button that closes a certificate',
  'contact.info': 'heading of your details',
  'contact.email': 'label of your e-mail',
  'contact.phone': 'label of your phone',
  'contact.location': 'label of your location',
  'contact.follow': 'heading of the social links',
  'social.on': 'name of a link ({site} is the site)',
  'social.email': 'name of the e-mail link',
  'form.label': 'its name for screen readers',
  'form.name': 'label of the name',
  'form.email': 'label of the e-mail',
  'form.subject': 'label of the subject',
  'form.message': 'label of the message',
  'form.required': 'a required field left empty',
  'form.tooLong': 'a field too long',
  'form.invalidEmail': 'an e-mail address that is not one',
  'form.invalid': 'a field that is not valid',
  'form.send': 'send button',
  'form.sending': 'the button while sending',
  'form.preparing': 'the button while preparing',
  'form.sent': 'the message after sending',
  'form.thanks': 'the thanks after sending ({name} is the sender’s name)',
  'form.kept': 'the message when sending failed',
  'form.fixFields': 'the line above the fields that need fixing',
  'form.tooMany': 'too many messages sent',
  'form.network': 'the server out of reach',
  'form.storage': 'the message not saved',
  'form.server': 'an error on the server',
  'form.failed': 'any other failure',
  'wait.moment': 'a short wait',
  'wait.seconds': 'a wait in seconds',
  'wait.minutes': 'a wait in minutes',
  'footer.elsewhere': 'heading of the links',
  'footer.copyright': 'copyright ({years} are the years, {name} your name)',
  'offer.text': 'its sentence',
  'offer.switch': 'button that switches',
  'offer.dismiss': 'button that dismisses it',
  'banner.label': 'its name',
  'banner.text': 'its sentence',
  'banner.dismiss': 'button that dismisses it',
  'banner.open': 'button that opens the browser',
  'banner.copied': 'after the link is copied',
  'banner.copiedIos': 'after the link is copied on an iPhone or iPad',
  'banner.copy': 'when the link cannot be copied',
  'error.heading': 'heading',
  'error.notFound.title': 'a missing page’s title',
  'error.notFound.body': 'a missing page’s sentence',
  'error.notFound.documentTitle': 'a missing page’s tab title',
  'error.failed.label': 'a failure’s label',
  'error.failed.title': 'a failure’s title',
  'error.failed.body': 'a failure’s sentence',
  'error.failed.documentTitle': 'a failure’s tab title',
  'error.back': 'link back to the portfolio',
  'error.reload': 'button that reloads',
};

/** The keys named here (a plural's forms share one name). */
export const NAMED = Object.keys(WHAT);

/** Where on the page a fixed text is: `hero.viewWork` is on the "Hero". */
export const placeOf = (key: string): string => PLACES[key.split('.')[0]!] ?? 'Language menu';

/** A fixed text's name: `hero.viewWork` is "Hero: button to the projects", `projects.shown#one` "Projects: how many are shown (one)". */
export function fixedTextName(key: string): string {
  const [base = key, form] = key.split('#');
  const what = WHAT[base];
  const place = PLACES[base.split('.')[0]!];
  const name = what && place ? `${place}: ${what}` : (what ?? key);
  return form ? `${name} (${form === 'other' ? 'several' : form})` : name;
}
