//! Uploaded raster images read by each format's own decoder (zune-jpeg, png, image-webp and gif:
//! the ones resvg already reads an SVG's embedded images with, so the upload path builds no image
//! library of its own), within limits against decompression bombs, turned upright by their EXIF
//! orientation, and resampled (Catmull-Rom, by the `resize` crate) to the page's widths.

use std::io::Cursor;
use std::num::NonZeroU64;

use rgb::FromSlice;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

/// The largest side an uploaded image may have, in pixels.
pub const MAX_SIDE: u32 = 10_000;

/// The most memory one decode may take (the decoded pixels count): 128 MiB holds a 40
/// megapixel photo, and refuses a small file that would unpack into gigabytes.
pub const MAX_DECODE_BYTES: u64 = 128 * 1024 * 1024;

/// The raster formats an upload may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jpeg,
    Png,
    WebP,
    Gif,
}

impl Format {
    /// The format the first bytes name (their magic numbers), if it is one we read.
    pub fn of(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Self::Jpeg)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Self::Png)
        } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
            Some(Self::WebP)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(Self::Gif)
        } else {
            None
        }
    }
}

/// Why an image could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unread {
    /// Wider or taller than [`MAX_SIDE`], or more pixels than [`MAX_DECODE_BYTES`] hold.
    TooLarge,
    /// Not a valid file of its format.
    Unreadable,
}

/// Decoded pixels, 8 bits a channel: RGB, or RGBA when the image may be transparent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub alpha: bool,
    pub data: Vec<u8>,
}

impl Pixels {
    fn new(width: u32, height: u32, alpha: bool, data: Vec<u8>) -> Self {
        Pixels {
            width,
            height,
            alpha,
            data,
        }
    }

    fn channels(&self) -> usize {
        if self.alpha {
            4
        } else {
            3
        }
    }

    /// The image resampled to `width` x `height` with the Catmull-Rom filter (transparent
    /// pixels premultiplied while filtering, so that no colour bleeds from under them).
    pub fn resized(&self, width: u32, height: u32) -> Pixels {
        let (sw, sh, dw, dh) = (
            self.width as usize,
            self.height as usize,
            width as usize,
            height as usize,
        );
        let mut data = vec![0u8; dw * dh * self.channels()];
        let done = if self.alpha {
            resize::new(sw, sh, dw, dh, resize::Pixel::RGBA8P, resize::Type::Catrom)
                .and_then(|mut r| r.resize(self.data.as_rgba(), data.as_rgba_mut()))
        } else {
            resize::new(sw, sh, dw, dh, resize::Pixel::RGB8, resize::Type::Catrom)
                .and_then(|mut r| r.resize(self.data.as_rgb(), data.as_rgb_mut()))
        };
        // The sizes are never zero and the buffers are made for them: a failure is a bug here.
        done.expect("resampling buffers of the right size");
        Pixels {
            width,
            height,
            alpha: self.alpha,
            data,
        }
    }

    /// The pixels turned as EXIF orientation `orientation` (1 to 8) says the camera held them.
    fn upright(self, orientation: u16) -> Pixels {
        if !(2..=8).contains(&orientation) {
            return self;
        }
        let (w, h) = (self.width as usize, self.height as usize);
        let channels = self.channels();
        let swapped = orientation >= 5;
        let (dw, dh) = if swapped { (h, w) } else { (w, h) };
        let mut data = vec![0u8; self.data.len()];
        for dy in 0..dh {
            for dx in 0..dw {
                let (sx, sy) = match orientation {
                    2 => (w - 1 - dx, dy),
                    3 => (w - 1 - dx, h - 1 - dy),
                    4 => (dx, h - 1 - dy),
                    5 => (dy, dx),
                    6 => (dy, h - 1 - dx),
                    7 => (w - 1 - dy, h - 1 - dx),
                    _ => (w - 1 - dy, dx),
                };
                let from = (sy * w + sx) * channels;
                let to = (dy * dw + dx) * channels;
                data[to..to + channels].copy_from_slice(&self.data[from..from + channels]);
            }
        }
        Pixels {
            width: dw as u32,
            height: dh as u32,
            alpha: self.alpha,
            data,
        }
    }
}

/// Refuses sizes past the limits before anything is allocated for the pixels.
fn within_limits(width: u64, height: u64, channels: u64) -> Result<(), Unread> {
    let side = u64::from(MAX_SIDE);
    if width > side || height > side || width * height * channels > MAX_DECODE_BYTES {
        Err(Unread::TooLarge)
    } else if width == 0 || height == 0 {
        Err(Unread::Unreadable)
    } else {
        Ok(())
    }
}

/// The image decoded within the limits and turned upright by its EXIF orientation. An animated
/// GIF or WebP gives its first frame.
pub fn decode(bytes: &[u8], format: Format) -> Result<Pixels, Unread> {
    let (pixels, exif) = match format {
        Format::Jpeg => jpeg(bytes)?,
        Format::Png => png(bytes)?,
        Format::WebP => webp(bytes)?,
        Format::Gif => (gif(bytes)?, None),
    };
    let orientation = exif.as_deref().and_then(orientation).unwrap_or(1);
    Ok(pixels.upright(orientation))
}

fn jpeg(bytes: &[u8]) -> Result<(Pixels, Option<Vec<u8>>), Unread> {
    // Any size a JPEG can say passes the header (its own limit would be an error like any
    // other): the limits are checked below, before the pixels are decoded.
    let options = DecoderOptions::default()
        .set_max_width(usize::from(u16::MAX))
        .set_max_height(usize::from(u16::MAX))
        .jpeg_set_out_colorspace(ColorSpace::RGB);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(bytes), options);
    decoder.decode_headers().map_err(|_| Unread::Unreadable)?;
    let info = decoder.info().ok_or(Unread::Unreadable)?;
    within_limits(u64::from(info.width), u64::from(info.height), 3)?;
    if decoder.output_colorspace() != Some(ColorSpace::RGB) {
        return Err(Unread::Unreadable);
    }
    let exif = decoder.exif().cloned();
    let data = decoder.decode().map_err(|_| Unread::Unreadable)?;
    let pixels = Pixels {
        width: u32::from(info.width),
        height: u32::from(info.height),
        alpha: false,
        data,
    };
    if pixels.data.len() != pixels.width as usize * pixels.height as usize * 3 {
        return Err(Unread::Unreadable);
    }
    Ok((pixels, exif))
}

fn png(bytes: &[u8]) -> Result<(Pixels, Option<Vec<u8>>), Unread> {
    let limits = png::Limits {
        bytes: MAX_DECODE_BYTES as usize,
    };
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), limits);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|error| match error {
        png::DecodingError::LimitsExceeded => Unread::TooLarge,
        _ => Unread::Unreadable,
    })?;
    let (width, height) = (reader.info().width, reader.info().height);
    let exif = reader.info().exif_metadata.as_deref().map(<[u8]>::to_vec);
    let (color, _) = reader.output_color_type();
    let channels = color.samples() as u64;
    // Grey becomes RGB below: the limit counts the bytes it will take then.
    within_limits(u64::from(width), u64::from(height), channels.max(3))?;
    let mut buffer = vec![0u8; reader.output_buffer_size().ok_or(Unread::TooLarge)?];
    let frame = reader
        .next_frame(&mut buffer)
        .map_err(|error| match error {
            png::DecodingError::LimitsExceeded => Unread::TooLarge,
            _ => Unread::Unreadable,
        })?;
    buffer.truncate(frame.buffer_size());
    let (alpha, data) = match color {
        png::ColorType::Rgb => (false, buffer),
        png::ColorType::Rgba => (true, buffer),
        png::ColorType::Grayscale => (false, buffer.iter().flat_map(|&v| [v, v, v]).collect()),
        png::ColorType::GrayscaleAlpha => (
            true,
            buffer
                .chunks_exact(2)
                .flat_map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
        ),
        png::ColorType::Indexed => return Err(Unread::Unreadable),
    };
    Ok((Pixels::new(width, height, alpha, data), exif))
}

fn webp(bytes: &[u8]) -> Result<(Pixels, Option<Vec<u8>>), Unread> {
    let mut decoder =
        image_webp::WebPDecoder::new(Cursor::new(bytes)).map_err(|_| Unread::Unreadable)?;
    let (width, height) = decoder.dimensions();
    let alpha = decoder.has_alpha();
    within_limits(
        u64::from(width),
        u64::from(height),
        if alpha { 4 } else { 3 },
    )?;
    let exif = decoder.exif_metadata().ok().flatten();
    let mut data = vec![0u8; decoder.output_buffer_size().ok_or(Unread::TooLarge)?];
    decoder
        .read_image(&mut data)
        .map_err(|_| Unread::Unreadable)?;
    Ok((Pixels::new(width, height, alpha, data), exif))
}

/// The first frame, drawn where it sits on the GIF's canvas (transparent around it).
fn gif(bytes: &[u8]) -> Result<Pixels, Unread> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    options.set_memory_limit(gif::MemoryLimit::Bytes(
        NonZeroU64::new(MAX_DECODE_BYTES).expect("a limit above zero"),
    ));
    let mut decoder = options.read_info(bytes).map_err(|_| Unread::Unreadable)?;
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    within_limits(width as u64, height as u64, 4)?;
    let frame = decoder
        .read_next_frame()
        .map_err(|_| Unread::Unreadable)?
        .ok_or(Unread::Unreadable)?;
    let mut data = vec![0u8; width * height * 4];
    let (left, top) = (usize::from(frame.left), usize::from(frame.top));
    let frame_width = usize::from(frame.width);
    for (row, line) in frame.buffer.chunks_exact(frame_width * 4).enumerate() {
        let y = top + row;
        if y >= height || left >= width {
            break;
        }
        let visible = frame_width.min(width - left);
        let to = (y * width + left) * 4;
        data[to..to + visible * 4].copy_from_slice(&line[..visible * 4]);
    }
    Ok(Pixels {
        width: width as u32,
        height: height as u32,
        alpha: true,
        data,
    })
}

/// The orientation (1 to 8) in EXIF data: a TIFF structure, after `Exif\0\0` in some files,
/// whose first directory may hold tag 0x0112.
fn orientation(exif: &[u8]) -> Option<u16> {
    let tiff = exif.strip_prefix(b"Exif\0\0").unwrap_or(exif);
    let big = match tiff.get(..4)? {
        [0x49, 0x49, 42, 0] => false,
        [0x4D, 0x4D, 0, 42] => true,
        _ => return None,
    };
    let u16_at = |at: usize| -> Option<u16> {
        let bytes: [u8; 2] = tiff.get(at..at + 2)?.try_into().ok()?;
        Some(if big {
            u16::from_be_bytes(bytes)
        } else {
            u16::from_le_bytes(bytes)
        })
    };
    let u32_at = |at: usize| -> Option<u32> {
        let bytes: [u8; 4] = tiff.get(at..at + 4)?.try_into().ok()?;
        Some(if big {
            u32::from_be_bytes(bytes)
        } else {
            u32::from_le_bytes(bytes)
        })
    };
    let directory = u32_at(4)? as usize;
    let entries = u16_at(directory)?;
    (0..usize::from(entries))
        .map(|i| directory + 2 + i * 12)
        .find(|&entry| u16_at(entry) == Some(0x0112))
        .and_then(|entry| {
            // Type SHORT (3), one value, held in the entry itself.
            (u16_at(entry + 2)? == 3).then_some(())?;
            u16_at(entry + 8)
        })
        .filter(|value| (1..=8).contains(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixels(width: u32, height: u32) -> Pixels {
        Pixels {
            width,
            height,
            alpha: false,
            data: (0..width * height).flat_map(|i| [i as u8, 0, 0]).collect(),
        }
    }

    #[test]
    fn each_orientation_turns_the_pixels_as_exif_says() {
        // 3 x 2, numbered row by row:   0 1 2
        //                               3 4 5
        let red = |p: &Pixels| p.data.chunks(3).map(|c| c[0]).collect::<Vec<_>>();
        let cases: [(u16, (u32, u32), [u8; 6]); 8] = [
            (1, (3, 2), [0, 1, 2, 3, 4, 5]),
            (2, (3, 2), [2, 1, 0, 5, 4, 3]),
            (3, (3, 2), [5, 4, 3, 2, 1, 0]),
            (4, (3, 2), [3, 4, 5, 0, 1, 2]),
            (5, (2, 3), [0, 3, 1, 4, 2, 5]),
            (6, (2, 3), [3, 0, 4, 1, 5, 2]),
            (7, (2, 3), [5, 2, 4, 1, 3, 0]),
            (8, (2, 3), [2, 5, 1, 4, 0, 3]),
        ];
        for (orientation, size, expected) in cases {
            let turned = pixels(3, 2).upright(orientation);
            assert_eq!((turned.width, turned.height), size, "{orientation}");
            assert_eq!(red(&turned), expected, "{orientation}");
        }
    }

    #[test]
    fn the_orientation_is_read_in_either_byte_order() {
        let little = b"II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0\x06\0\0\0";
        assert_eq!(orientation(little), Some(6));
        let big = b"Exif\0\0MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x08\0\0";
        assert_eq!(orientation(big), Some(8));
        assert_eq!(orientation(b"II*\0\xff\xff\0\0"), None);
        assert_eq!(orientation(b""), None);
    }

    /// `image` (the tests' own encoder) writes `picture` as `format`.
    fn encoded(picture: image::DynamicImage, format: image::ImageFormat) -> Vec<u8> {
        let mut bytes = Vec::new();
        picture
            .write_to(&mut Cursor::new(&mut bytes), format)
            .unwrap();
        bytes
    }

    #[test]
    fn grey_and_transparent_pngs_and_a_gif_decode_to_rgb_or_rgba() {
        let grey = image::GrayImage::from_fn(5, 3, |x, _| image::Luma([x as u8 * 50]));
        let png = encoded(grey.into(), image::ImageFormat::Png);
        let decoded = decode(&png, Format::Png).unwrap();
        assert_eq!(
            (decoded.width, decoded.height, decoded.alpha),
            (5, 3, false)
        );
        assert_eq!(&decoded.data[..6], &[0, 0, 0, 50, 50, 50]);

        let clear = image::RgbaImage::from_fn(4, 4, |x, _| image::Rgba([200, 0, 0, x as u8 * 80]));
        let png = encoded(clear.clone().into(), image::ImageFormat::Png);
        let decoded = decode(&png, Format::Png).unwrap();
        assert!(decoded.alpha);
        assert_eq!(decoded.data, clear.into_raw());
        let half = decoded.resized(2, 2);
        assert_eq!((half.width, half.height, half.data.len()), (2, 2, 16));
        assert!(
            half.data.chunks(4).all(|p| p[1] == 0 && p[2] == 0),
            "{half:?}"
        );

        let gif = encoded(
            image::RgbaImage::from_pixel(6, 2, image::Rgba([0, 0, 255, 255])).into(),
            image::ImageFormat::Gif,
        );
        let decoded = decode(&gif, Format::Gif).unwrap();
        assert_eq!((decoded.width, decoded.height, decoded.alpha), (6, 2, true));
        assert!(decoded.data.chunks(4).all(|p| p == [0, 0, 255, 255]));
    }

    #[test]
    fn a_broken_file_is_unreadable_and_a_huge_one_too_large() {
        let jpeg = encoded(
            image::RgbImage::from_pixel(16, 16, image::Rgb([9, 9, 9])).into(),
            image::ImageFormat::Jpeg,
        );
        assert_eq!(decode(&jpeg[..40], Format::Jpeg), Err(Unread::Unreadable));
        assert_eq!(decode(&jpeg, Format::Jpeg).unwrap().data.len(), 16 * 16 * 3);
        let mut wide = jpeg.clone();
        // The frame header (SOF0, FF C0): its height and width follow its length and precision.
        let sof = wide.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        wide[sof + 5..sof + 9].copy_from_slice(&[0x00, 0x10, 0x75, 0x31]);
        assert_eq!(decode(&wide, Format::Jpeg), Err(Unread::TooLarge));
    }

    #[test]
    fn formats_come_from_the_magic_numbers() {
        assert_eq!(Format::of(b"\xFF\xD8\xFF\xE0"), Some(Format::Jpeg));
        assert_eq!(Format::of(b"\x89PNG\r\n\x1a\n"), Some(Format::Png));
        assert_eq!(Format::of(b"RIFF\0\0\0\0WEBPVP8 "), Some(Format::WebP));
        assert_eq!(Format::of(b"GIF89a"), Some(Format::Gif));
        assert_eq!(Format::of(b"RIFF\0\0\0\0WAVE"), None);
        assert_eq!(Format::of(b"BM\0\0"), None);
    }
}
