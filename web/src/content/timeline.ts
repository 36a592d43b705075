/** Work experience and education, newest first. Plain data: the resume generator reads it too. */
export interface TimelineEntry {
  title: string;
  place: string;
  date: string;
  description: string;
  /** Award names; each becomes a link that opens its certificate. */
  awards?: readonly string[];
}

export const work: readonly TimelineEntry[] = [
  {
    title: 'Analyst',
    place: 'Global IT Services Company, Hyderabad',
    date: '2023 - Present',
    description:
      'Build and maintain customer-facing React and Adobe Experience Manager (AEM) components for enterprise sites, improve page speed and accessibility, and review code for a team of six.',
    awards: ['Spot Award', 'Applause Award'],
  },
  {
    title: 'Programmer Analyst',
    place: 'Global IT Services Company, Hyderabad',
    date: '2021 - 2023',
    description:
      'Started straight after graduation: turned designs into responsive pages with HTML, CSS and JavaScript, wrote reusable React components and fixed cross-browser bugs.',
  },
];

export const education: readonly TimelineEntry[] = [
  {
    title: 'B.Tech in Electronics & Communication Engineering',
    place: 'Engineering College, Andhra Pradesh',
    date: '2017 - 2021',
    description:
      'Graduated with a focus on digital systems; built my first web projects in the final years and found my way into front-end development.',
  },
  {
    title: '12th M.P.C',
    place: 'Junior College, Andhra Pradesh',
    date: '2015 - 2017',
    description: 'Intermediate education in Mathematics, Physics and Chemistry.',
  },
];
