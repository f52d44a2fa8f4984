//! Geometry: a realistic Rust fixture.
use std::fmt;

/// Largest side accepted.
pub const MAX_SIDE: f64 = 1.0e6;
static mut CREATED: u32 = 0;

pub type Scalar = f64;

/// A point in the plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: Scalar,
    pub y: Scalar,
}

pub enum Shape {
    Circle { center: Point, radius: Scalar },
    Square(Point, Scalar),
}

pub trait Area {
    const SIDES: u32;
    fn area(&self) -> Scalar;
    fn describe(&self) -> String {
        format!("area {:.2}", self.area())
    }
}

impl Point {
    pub fn new(x: Scalar, y: Scalar) -> Self {
        unsafe { CREATED += 1 };
        Point { x, y }
    }

    pub fn dist(&self, other: &Point) -> Scalar {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl From<(Scalar, Scalar)> for Point {
    fn from(p: (Scalar, Scalar)) -> Self {
        Point::new(p.0, p.1)
    }
}

impl From<[Scalar; 2]> for Point {
    fn from(p: [Scalar; 2]) -> Self {
        Point::new(p[0], p[1])
    }
}

impl Area for Shape {
    const SIDES: u32 = 0;
    fn area(&self) -> Scalar {
        match self {
            Shape::Circle { radius, .. } => std::f64::consts::PI * radius * radius,
            Shape::Square(_, side) => side * side,
        }
    }
}

pub mod io {
    pub mod text {
        pub fn parse(s: &str) -> Option<(f64, f64)> {
            let mut it = s.split(',');
            let x = it.next()?.trim().parse().ok()?;
            let y = it.next()?.trim().parse().ok()?;
            Some((x, y))
        }
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin() {
        assert_eq!(Point::new(0.0, 0.0).dist(&Point::new(0.0, 0.0)), 0.0);
    }
}
