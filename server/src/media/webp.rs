//! Lossy WebP through the system's libwebp (Debian's `libwebp7`; `make` installs `libwebp-dev` to
//! build, and `build.rs` finds it with pkg-config), by its simple encoding API: one call that
//! encodes RGB or RGBA pixels at a quality, and the call that frees what it returned. Not the
//! `webp` crate, whose `libwebp-sys` compiled libwebp's whole C source (decoder, encoder, mux) in
//! every cold build: about 14 s of the first `make run`'s two cores.

use std::ffi::{c_int, c_void};

// libwebp's `encode.h`: each returns the size of the WebP written to `*output` (a buffer it
// allocated, to be freed with `WebPFree`), or 0 on failure with nothing allocated.
extern "C" {
    fn WebPEncodeRGB(
        rgb: *const u8,
        width: c_int,
        height: c_int,
        stride: c_int,
        quality_factor: f32,
        output: *mut *mut u8,
    ) -> usize;
    fn WebPEncodeRGBA(
        rgba: *const u8,
        width: c_int,
        height: c_int,
        stride: c_int,
        quality_factor: f32,
        output: *mut *mut u8,
    ) -> usize;
    fn WebPFree(ptr: *mut c_void);
}

/// The widest and tallest picture WebP can hold.
pub const MAX_DIMENSION: u32 = 16_383;

/// Why a picture was not encoded.
#[derive(Debug, PartialEq, Eq)]
pub enum NotEncoded {
    /// Wider or taller than [`MAX_DIMENSION`], or empty.
    Dimensions,
    /// `pixels` does not hold `width` × `height` pixels of 3 (RGB) or 4 (RGBA) bytes.
    Length,
    /// libwebp refused it (out of memory, or a limit of its own).
    Encoder,
}

/// The pixels (rows top to bottom, RGBA when `alpha`, else RGB, 8 bits a channel, no padding)
/// as a lossy WebP at `quality` (0 to 100): the picture alone, no metadata.
pub fn encode_lossy(
    pixels: &[u8],
    width: u32,
    height: u32,
    alpha: bool,
    quality: f32,
) -> Result<Vec<u8>, NotEncoded> {
    if width == 0 || height == 0 || width > MAX_DIMENSION || height > MAX_DIMENSION {
        return Err(NotEncoded::Dimensions);
    }
    let channels: u32 = if alpha { 4 } else { 3 };
    let stride = width * channels;
    if pixels.len() as u64 != u64::from(stride) * u64::from(height) {
        return Err(NotEncoded::Length);
    }
    // Each is at most 16,383 × 4: within a C int.
    let (Ok(width), Ok(height), Ok(stride)) = (
        c_int::try_from(width),
        c_int::try_from(height),
        c_int::try_from(stride),
    ) else {
        return Err(NotEncoded::Dimensions);
    };
    let quality = quality.clamp(0.0, 100.0);
    let mut output: *mut u8 = std::ptr::null_mut();
    let encode = if alpha { WebPEncodeRGBA } else { WebPEncodeRGB };
    // SAFETY: `pixels` holds exactly `height` rows of `stride` bytes (checked above), which
    // libwebp only reads; it writes to `output` the address of a buffer of the returned size that
    // it allocated, or leaves nothing allocated and returns 0.
    #[allow(unsafe_code)]
    let size = unsafe { encode(pixels.as_ptr(), width, height, stride, quality, &mut output) };
    if output.is_null() {
        return Err(NotEncoded::Encoder);
    }
    // SAFETY: libwebp returned a buffer of `size` bytes at `output`: it is copied, then freed
    // once, by libwebp's own allocator.
    #[allow(unsafe_code)]
    let bytes = unsafe {
        let bytes = std::slice::from_raw_parts(output, size).to_vec();
        WebPFree(output.cast());
        bytes
    };
    if bytes.is_empty() {
        return Err(NotEncoded::Encoder);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_rgb_and_rgba_as_a_lossy_webp_of_the_same_size() {
        for alpha in [false, true] {
            let channels = if alpha { 4 } else { 3 };
            let (width, height) = (37, 21);
            let pixels: Vec<u8> = (0..width * height * channels)
                .map(|i| (i * 7 % 251) as u8)
                .collect();
            let webp = encode_lossy(&pixels, width, height, alpha, 78.0).unwrap();
            assert_eq!((&webp[..4], &webp[8..12]), (&b"RIFF"[..], &b"WEBP"[..]));
            let has = |chunk: &[u8]| webp.windows(4).any(|w| w == chunk);
            assert!(
                has(b"VP8 ") && !has(b"VP8L"),
                "lossy (VP8), not lossless (VP8L)"
            );
            let decoded = image_webp::WebPDecoder::new(std::io::Cursor::new(&webp)).unwrap();
            assert_eq!(decoded.dimensions(), (width, height));
        }
    }

    #[test]
    fn refuses_what_is_not_a_picture_of_its_size() {
        assert!(encode_lossy(&[0; 12], 2, 2, false, 78.0).is_ok());
        assert_eq!(
            encode_lossy(&[0; 11], 2, 2, false, 78.0),
            Err(NotEncoded::Length)
        );
        assert_eq!(
            encode_lossy(&[0; 16], 2, 2, false, 78.0),
            Err(NotEncoded::Length)
        );
        assert_eq!(
            encode_lossy(&[], 0, 2, true, 78.0),
            Err(NotEncoded::Dimensions)
        );
        assert_eq!(
            encode_lossy(&[0; 3], MAX_DIMENSION + 1, 1, false, 78.0),
            Err(NotEncoded::Dimensions)
        );
    }
}
