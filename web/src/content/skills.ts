/** The technologies shown in the Skills section, each with its logo (SVG served by our own server). */
import html5 from './images/logos/html5.svg';
import css3 from './images/logos/css3.svg';
import bootstrap from './images/logos/bootstrap.svg';
import javascript from './images/logos/javascript.svg';
import react from './images/logos/react.svg';
import tailwindcss from './images/logos/tailwindcss.svg';
import materialui from './images/logos/materialui.svg';
import vite from './images/logos/vite.svg';
import firebase from './images/logos/firebase.svg';
import git from './images/logos/git.svg';
import vercel from './images/logos/vercel.svg';
import nodedotjs from './images/logos/nodedotjs.svg';
import express from './images/logos/express.svg';
import aem from './images/logos/aem.svg';

export interface Technology {
  name: string;
  /** URL of the logo image. */
  logo: string;
}

export const skills: readonly Technology[] = [
  { name: 'HTML5', logo: html5 },
  { name: 'CSS3', logo: css3 },
  { name: 'Bootstrap', logo: bootstrap },
  { name: 'JavaScript', logo: javascript },
  { name: 'React', logo: react },
  { name: 'Tailwind CSS', logo: tailwindcss },
  { name: 'Material UI', logo: materialui },
  { name: 'Vite', logo: vite },
  { name: 'Firebase', logo: firebase },
  { name: 'Git', logo: git },
  { name: 'Vercel', logo: vercel },
  { name: 'Node.js', logo: nodedotjs },
  { name: 'Express', logo: express },
  { name: 'AEM', logo: aem },
];
