import type { Image } from '../../../shared/events.js';
import { imageSource } from '../lib/format.js';
import { EnlargeableImage } from '../components/ImageLightbox.js';

export function ImageStrip({ images, label }: { images: Image[]; label: string }) {
  if (images.length === 0) return null;
  return (
    <div className="tool-figures" aria-label={label}>
      {images.map((image, index) => (
        <figure key={index} className="tool-figure">
          <EnlargeableImage src={imageSource(image)} alt={image.path ?? `${label} ${index + 1}`}>
            <img src={imageSource(image)} alt={image.path ?? `${label} ${index + 1}`} loading="lazy" />
          </EnlargeableImage>
          {image.path ? <figcaption>{image.path}</figcaption> : null}
        </figure>
      ))}
    </div>
  );
}
