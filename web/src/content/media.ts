/** The owner's photo and the award certificates. Replace the files in ./images and keep the sizes in step. */
import avatar320 from './images/avatar-320.webp';
import avatar640 from './images/avatar-640.webp';
import spot480 from './images/awards/spot-award-480.webp';
import spot960 from './images/awards/spot-award-960.webp';
import applause480 from './images/awards/applause-award-480.webp';
import applause960 from './images/awards/applause-award-960.webp';

/** An image in a few widths: `src` is the smallest, `srcSet` lists all, width/height give the aspect ratio. */
export interface ResponsiveImage {
  src: string;
  srcSet: string;
  width: number;
  height: number;
  alt: string;
}

export const photo: ResponsiveImage = {
  src: avatar320,
  srcSet: `${avatar320} 320w, ${avatar640} 640w`,
  width: 640,
  height: 640,
  alt: 'Illustrated portrait of Alex Morgan',
};

/** The certificate shown for an entry's first award (index 0) and for any other award. */
export const awardImages: { spot: ResponsiveImage; applause: ResponsiveImage } = {
  spot: {
    src: spot480,
    srcSet: `${spot480} 480w, ${spot960} 960w`,
    width: 960,
    height: 672,
    alt: 'Spot Award certificate',
  },
  applause: {
    src: applause480,
    srcSet: `${applause480} 480w, ${applause960} 960w`,
    width: 960,
    height: 672,
    alt: 'Applause Award certificate',
  },
};
