//! Annotated screenshots (issue 16): each ref's box outlined on the PNG and labelled with
//! its ref, so an agent that looks at the image can name what it sees.
//!
//! Owns: decoding and encoding the PNG (the `image` crate), drawing outlines and labels
//! (8x8 bitmap glyphs of `font8x8`, scaled to the device pixel ratio). Must not: reach the
//! browser (boxes come from the engine through the runner).

use crate::error::{Error, Result};
use image::{ImageFormat, Rgba, RgbaImage};

/// The colour of outlines and label backgrounds (magenta: rare on pages).
pub const MARK: Rgba<u8> = Rgba([255, 0, 255, 255]);
/// The colour of label text.
pub const TEXT: Rgba<u8> = Rgba([255, 255, 255, 255]);

/// One box to draw: its label and where it is, in CSS pixels of the image's origin.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub label: String,
    /// [x, y, width, height] in CSS pixels.
    pub rect: [f64; 4],
}

/// Where a label went, in image pixels: [x, y, width, height].
pub type Placed = [u32; 4];

/// Draws `marks` on the PNG `png` whose pixels are `scale` times CSS pixels (the device
/// pixel ratio); returns the new PNG and where each mark's label went (None for marks
/// wholly outside the image).
pub fn annotate(png: &[u8], marks: &[Mark], scale: f64) -> Result<(Vec<u8>, Vec<Option<Placed>>)> {
    let mut img = image::load_from_memory_with_format(png, ImageFormat::Png)
        .map_err(|e| {
            Error::Engine(format!(
                "the browser's screenshot is not a PNG we can read: {e}"
            ))
        })?
        .to_rgba8();
    let k = glyph_scale(scale);
    let mut placed = Vec::with_capacity(marks.len());
    for m in marks {
        let [x, y, w, h] = m.rect.map(|v| v * scale);
        let (iw, ih) = (f64::from(img.width()), f64::from(img.height()));
        if w <= 0.0 || h <= 0.0 || x >= iw || y >= ih || x + w <= 0.0 || y + h <= 0.0 {
            placed.push(None);
            continue;
        }
        let (x0, y0) = (x.max(0.0) as u32, y.max(0.0) as u32);
        let x1 = ((x + w).min(iw) as u32).saturating_sub(1);
        let y1 = ((y + h).min(ih) as u32).saturating_sub(1);
        outline(&mut img, [x0, y0, x1, y1], 2 * k);
        placed.push(Some(label(&mut img, x0, y0, &m.label, k)));
    }
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(img)
        .write_to(&mut out, ImageFormat::Png)
        .map_err(|e| Error::Engine(format!("could not encode the annotated screenshot: {e}")))?;
    Ok((out.into_inner(), placed))
}

/// How many image pixels each glyph pixel takes: 2 at a device pixel ratio of 1 (8-pixel
/// glyphs are hard to read at their own size), 1.5 times the ratio above.
pub fn glyph_scale(scale: f64) -> u32 {
    ((scale * 1.5).round() as u32).max(2)
}

/// The size in image pixels of a label of `chars` characters: [width, height].
pub fn label_size(chars: usize, scale: f64) -> [u32; 2] {
    let k = glyph_scale(scale);
    [(chars as u32 * 8 + 2) * k, 10 * k]
}

fn fill(img: &mut RgbaImage, x0: u32, y0: u32, x1: u32, y1: u32, c: Rgba<u8>) {
    let (w, h) = img.dimensions();
    for y in y0..=y1.min(h.saturating_sub(1)) {
        for x in x0..=x1.min(w.saturating_sub(1)) {
            img.put_pixel(x, y, c);
        }
    }
}

/// A rectangle's outline `t` pixels thick, inside [x0, y0, x1, y1] (inclusive corners).
fn outline(img: &mut RgbaImage, [x0, y0, x1, y1]: [u32; 4], t: u32) {
    let t = t.saturating_sub(1);
    fill(img, x0, y0, x1, (y0 + t).min(y1), MARK);
    fill(img, x0, y1.saturating_sub(t).max(y0), x1, y1, MARK);
    fill(img, x0, y0, (x0 + t).min(x1), y1, MARK);
    fill(img, x1.saturating_sub(t).max(x0), y0, x1, y1, MARK);
}

/// A label at (x, y): a filled background with the text in 8x8 glyphs scaled by `k`.
fn label(img: &mut RgbaImage, x: u32, y: u32, text: &str, k: u32) -> Placed {
    let chars: Vec<char> = text.chars().collect();
    let [w, h] = [(chars.len() as u32 * 8 + 2) * k, 10 * k];
    // kept inside the image: a box at the right or bottom edge gets its label moved in
    let x = x.min(img.width().saturating_sub(w));
    let y = y.min(img.height().saturating_sub(h));
    fill(img, x, y, x + w - 1, y + h - 1, MARK);
    for (i, c) in chars.iter().enumerate() {
        let glyph = font8x8::legacy::BASIC_LEGACY[if c.is_ascii() {
            *c as usize
        } else {
            '?' as usize
        }];
        for (gy, row) in glyph.iter().enumerate() {
            for gx in 0..8u32 {
                if row & (1 << gx) == 0 {
                    continue;
                }
                let px = x + k + (i as u32 * 8 + gx) * k;
                let py = y + k + gy as u32 * k;
                fill(img, px, py, px + k - 1, py + k - 1, TEXT);
            }
        }
    }
    [x, y, w, h]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(w: u32, h: u32) -> Vec<u8> {
        let img = RgbaImage::from_pixel(w, h, Rgba([250, 250, 250, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        image::DynamicImage::ImageRgba8(img)
            .write_to(&mut out, ImageFormat::Png)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn boxes_are_outlined_and_labelled_inside() {
        let marks = vec![
            Mark {
                label: "s1e1".into(),
                rect: [10.0, 10.0, 80.0, 40.0],
            },
            Mark {
                label: "s1e2".into(),
                rect: [500.0, 500.0, 10.0, 10.0],
            },
        ];
        let (png, placed) = annotate(&blank(200, 100), &marks, 2.0).unwrap();
        assert_eq!(label_size(4, 2.0), [(4 * 8 + 2) * 3, 30]);
        let img = image::load_from_memory(&png).unwrap().to_rgba8();
        assert_eq!(img.dimensions(), (200, 100));
        let [lx, ly, lw, lh] = placed[0].unwrap();
        // the label sits inside the box (scaled by 2) at its top-left corner
        assert_eq!((lx, ly), (20, 20));
        assert_eq!([lw, lh], label_size(4, 2.0));
        let label: Vec<_> = (ly..ly + lh)
            .flat_map(|y| (lx..lx + lw).map(move |x| (x, y)))
            .map(|(x, y)| *img.get_pixel(x, y))
            .collect();
        assert!(label.contains(&MARK) && label.contains(&TEXT));
        // the outline is drawn; the box's inside away from the label is untouched
        assert_eq!(*img.get_pixel(20, 99), MARK);
        assert_eq!(*img.get_pixel(150, 70), Rgba([250, 250, 250, 255]));
        // a box outside the image is not drawn
        assert_eq!(placed[1], None);
        assert!(annotate(b"not a png", &marks, 1.0).is_err());
    }
}
