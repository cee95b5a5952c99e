//! A backend seen at a smaller, logical size: a canvas whose drawing buffer
//! has `ratio` device pixels per CSS pixel (a 2× screen, the large-text
//! view) is scaled by its context's transform, and the chart is laid out in
//! CSS pixels, so it looks the same size on every screen, only sharper.

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// `inner`, reporting `size` as its size; every call is passed on.
pub struct Logical<B> {
    /// The backend drawn on (its own transform maps logical pixels to its
    /// pixels).
    pub inner: B,
    /// The size the chart is laid out at, in logical pixels.
    pub size: (u32, u32),
}

/// The drawing buffer's size for a `size` canvas at `ratio` device pixels
/// per logical pixel (at least one pixel each way), and the exact scale
/// each way.
pub fn buffer_size(size: (u32, u32), ratio: f64) -> ((u32, u32), (f64, f64)) {
    let ratio = if ratio.is_finite() && ratio > 0.0 {
        ratio.min(8.0)
    } else {
        1.0
    };
    let scale = |n: u32| (f64::from(n.max(1)) * ratio).round().max(1.0) as u32;
    let buffer = (scale(size.0), scale(size.1));
    let exact = (
        f64::from(buffer.0) / f64::from(size.0.max(1)),
        f64::from(buffer.1) / f64::from(size.1.max(1)),
    );
    (buffer, exact)
}

type Failed<B> = DrawingErrorKind<<B as DrawingBackend>::ErrorType>;

impl<B: DrawingBackend> DrawingBackend for Logical<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), Failed<B>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Failed<B>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Failed<B>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Failed<B>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Failed<B>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Failed<B>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Failed<B>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Failed<B>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Failed<B>> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Failed<B>> {
        self.inner.estimate_text_size(text, style)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buffer_has_ratio_pixels_per_logical_pixel() {
        assert_eq!(buffer_size((300, 200), 2.0), ((600, 400), (2.0, 2.0)));
        assert_eq!(buffer_size((301, 200), 1.5).0, (452, 300));
        // A ratio that means nothing draws at one pixel per pixel.
        assert_eq!(buffer_size((300, 200), f64::NAN).0, (300, 200));
        assert_eq!(buffer_size((300, 200), 0.0).0, (300, 200));
    }
}
