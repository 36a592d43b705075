// Generated from content/src/document.rs: do not edit. Regenerate with
// `make generate` (UPDATE_CONTENT_SCHEMA=1 cargo test --locked --workspace --lib).

export type ContentDocument = { profile: Profile, 
/**
 * The phrases the hero's typewriter cycles through.
 */
typewriterPhrases: Array<string>, about: About, contact: Contact, 
/**
 * Links to the owner's profiles elsewhere; clicks are counted as `social:<id>`.
 */
social: Array<SocialLink>, 
/**
 * The technologies of the Skills section, in order.
 */
skills: Array<Skill>, 
/**
 * The projects of the Projects section, in order.
 */
projects: Array<Project>, 
/**
 * Work experience, newest first.
 */
experience: Array<TimelineEntry>, 
/**
 * Education, newest first.
 */
education: Array<TimelineEntry>, 
/**
 * Every image the document uses, referred to by its id.
 */
media: Array<MediaItem>, resume: Resume, 
/**
 * Each section's heading and the line below it.
 */
sections: SectionTexts, 
/**
 * The footer's title and line, and the copyright's first year.
 */
footer: Footer, 
/**
 * How the page looks; a document stored without it looks as the page did before it existed.
 */
appearance: Appearance, 
/**
 * The BCP 47 tag of the language the document's texts are written in, served at `/`.
 */
language?: string, 
/**
 * The owner's own wording of the page's fixed texts in the default language (`nav.about`,
 * `projects.shown#other` …), over the built-in ones of `web/src/i18n/`.
 */
strings?: { [key in string]?: string }, 
/**
 * The page in other languages, each served at `/<tag in lower case>/` once published.
 */
languages?: Array<Language>, };

export type Profile = { 
/**
 * Full name: the hero, the about section, the footer and link previews.
 */
name: string, 
/**
 * Job title: the about section, link previews and search engines.
 */
role: string, 
/**
 * One or two sentences for the meta description and link previews.
 */
summary: string, 
/**
 * The hero's paragraph below the typewriter: who they are and what they build.
 */
intro: string, location: Location, 
/**
 * The id of the owner's photo in `media`.
 */
photo: string, };

export type Location = { display: string, mapsQuery: string, };

export type About = { paragraphs: Array<string>, };

export type Contact = { email: string, phone: Phone, 
/**
 * When a visitor may expect an answer, said once their message is sent ("I usually reply
 * within a day or two."); translated with the page. A document stored before it existed
 * says the placeholder's sentence.
 */
responseTime: string, };

export type Phone = { dial: string, display: string, };

export type SocialLink = { 
/**
 * Stable id (`github`, `linkedin`, `twitter` …): clicks are counted by it.
 */
id: string, 
/**
 * The site's name, e.g. `GitHub`.
 */
label: string, url: string, };

export type Skill = { name: string, 
/**
 * The id of its logo in `media`.
 */
logo: string, };

export type Stack = "frontend" | "backend" | "fullstack";

export type Project = { 
/**
 * Stable id: clicks on its links are counted as `project:<id>:code` and `project:<id>:demo`,
 * so keep it when the title changes.
 */
id: string, title: string, description: string, 
/**
 * The id of its screenshot in `media`.
 */
image: string, 
/**
 * Code repository.
 */
codeUrl: string, 
/**
 * Live demo.
 */
demoUrl: string, technologies: Array<string>, stack: Stack, };

export type TimelineEntry = { title: string, place: string, 
/**
 * As shown, e.g. `2021 - 2023`.
 */
date: string, description: string, 
/**
 * Each becomes a link that opens its certificate.
 */
awards: Array<Award>, };

export type Award = { title: string, 
/**
 * The id of the certificate's image in `media`.
 */
certificate: string, };

export type MediaItem = { id: string, 
/**
 * What the image shows, for people who cannot see it (empty for a decorative one).
 */
alt: string, 
/**
 * The largest width, in pixels; with `height`, the aspect ratio the page reserves.
 */
width: number, height: number, 
/**
 * The files, smallest first.
 */
sources: Array<MediaSource>, };

export type MediaSource = { src: string, 
/**
 * Its width in pixels.
 */
width: number, };

export type Resume = { 
/**
 * Path of the PDF served by the site.
 */
path: string, 
/**
 * Which PDF `/resume.pdf` serves: the one made from this document (`generated`), or the
 * owner's own file (`uploaded`). Absent: the uploaded one while there is one, else the
 * generated one (as a document stored before the choice existed had it).
 */
source?: ResumeSource, 
/**
 * The generated resume's paper.
 */
paper?: PaperSize, 
/**
 * At most this many pages: what does not fit is left out whole.
 */
pages?: number, 
/**
 * Its sections, in order; absent or empty: all of them (summary, experience, projects,
 * skills, education).
 */
sections?: Array<SectionKind>, 
/**
 * The projects it shows by id, in order; absent: every project in the page's order.
 */
projects?: Array<string>, 
/**
 * The jobs it shows by their place in `experience` (0 the first), in order; absent: every
 * job.
 */
jobs?: Array<number>, };

export type ResumeSource = "generated" | "uploaded";

export type PaperSize = "a4" | "letter";

export type SectionKind = "summary" | "experience" | "projects" | "skills" | "education";

export type SectionTexts = { about: SectionText, skills: SectionText, projects: SectionText, 
/**
 * Experience and education, one section.
 */
experience: SectionText, contact: SectionText, };

export type SectionText = { title: string, 
/**
 * Empty for none.
 */
lead: string, };

export type Footer = { 
/**
 * Its heading, e.g. `Portfolio`.
 */
title: string, 
/**
 * The line below it; empty for none.
 */
line: string, 
/**
 * The copyright's first year: the line runs from it to the year of the publish.
 */
since: number, 
/**
 * The year of the publish, which the server writes into the page it renders (`None` while
 * nothing is published): never read from a document sent or stored.
 */
until?: number, };

export type Appearance = { 
/**
 * The colour scheme a visitor sees until they choose one: `dark` (today's page), `light`, or `system` (the visitor's system setting).
 */
scheme: Scheme, 
/**
 * The accent colour, `#rrggbb`: primary buttons, links, the active item, focus rings.
 */
accent: string, 
/**
 * Which sections of the page show.
 */
sections: Sections, 
/**
 * Whether the hero shows the "Available for new projects" badge.
 */
available: boolean, };

export type Scheme = "dark" | "light" | "system";

export type Sections = { 
/**
 * Whether the About section shows.
 */
about: boolean, 
/**
 * Whether the Skills section shows.
 */
skills: boolean, 
/**
 * Whether the Projects section shows.
 */
projects: boolean, 
/**
 * Whether the Experience section (work and education) shows.
 */
experience: boolean, 
/**
 * Whether the Contact section shows.
 */
contact: boolean, 
/**
 * Whether the Writing section (the latest posts) shows, once there is a post. Written only
 * when hidden: a document from before posts, and the build's, stay as they were.
 */
writing?: boolean, };

export type Language = { 
/**
 * Its BCP 47 tag (`de`, `pt-BR`); the page is served at the tag in lower case (`/pt-br/`).
 */
tag: string, 
/**
 * Served, listed in the alternates and the sitemap; a published language has every text
 * translated.
 */
published: boolean, 
/**
 * The translations of the document's texts, by the path of the text they translate. A
 * missing or empty one shows the default language's text (allowed until published).
 */
texts: { [key in string]?: string }, 
/**
 * The page's fixed texts in this language, over the built-in ones for its tag; a language
 * without built-in texts needs all of them.
 */
strings: { [key in string]?: string }, 
/**
 * The paths of the texts this language shows as the default language has them (dates,
 * names and places that rarely change): each follows the default text when it changes, and
 * counts as translated. A translation of the same path is not shown.
 */
same?: Array<string>, };

export type CaseStudy = { 
/**
 * The id of the project it tells of, in the page's `projects`: its title, picture and card
 * are the project's.
 */
project: string, 
/**
 * Its address, `/projects/<slug>/`: made from the project's title when the case study is
 * begun, and kept when the title changes.
 */
slug: string, 
/**
 * The addresses it had before, newest first, each answering with a 301 to the current one.
 * Kept by the server when a publish changes the slug.
 */
formerSlugs?: Array<string>, 
/**
 * One or two sentences under the title: also the page's description and its link preview's.
 */
summary: string, 
/**
 * The problem the work solved (Markdown).
 */
problem: string, 
/**
 * What the owner did (Markdown).
 */
role: string, 
/**
 * Who else worked on it (Markdown; empty for none).
 */
team: string, 
/**
 * What the work had to live with: time, budget, legacy (Markdown; empty for none).
 */
constraints: string, 
/**
 * The decisions taken, each with why.
 */
decisions: Array<Decision>, 
/**
 * What came of it (Markdown).
 */
outcome: string, 
/**
 * The outcome in figures.
 */
figures: Array<Figure>, 
/**
 * Pictures of the work, each with a caption; their descriptions for people who cannot see
 * them are the images' `alt`.
 */
gallery: Array<GalleryImage>, 
/**
 * The code, the live site, write-ups.
 */
links: Array<CaseLink>, 
/**
 * The technologies used.
 */
technologies: Array<string>, 
/**
 * The images the gallery and the texts use, referred to by id (uploads of the owner's).
 */
media: Array<MediaItem>, 
/**
 * Its texts in the page's other languages, by path (`problem`, `decisions[1].why`). A
 * language is shown once every text is translated; until then that language's pages leave
 * the case study out.
 */
translations?: Array<CaseStudyTranslation>, };

export type Decision = { title: string, 
/**
 * Why (Markdown).
 */
why: string, };

export type Figure = { 
/**
 * Written in the page's language's way (`1,200.5` in English, `1.200,5` in German).
 */
value: number, 
/**
 * After the number: `%`, `ms`, `×`, `k users` (empty for none).
 */
unit: string, 
/**
 * What it measures.
 */
label: string, };

export type GalleryImage = { 
/**
 * Its id in the case study's `media`.
 */
image: string, 
/**
 * Shown under it (empty for none).
 */
caption: string, };

export type CaseLinkKind = "code" | "live" | "article";

export type CaseLink = { kind: CaseLinkKind, label: string, url: string, };

export type CaseStudyTranslation = { tag: string, 
/**
 * The translations, by the path of the text they translate.
 */
texts: { [key in string]?: string }, 
/**
 * The paths of the texts shown as the default language has them (names, figures' units).
 */
same?: Array<string>, };
