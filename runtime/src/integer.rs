//! [`Integer`]: the Rust type of a schema's `type: integer` written without a `format`.

use std::fmt;

/// An integer of whatever width the API sends: what a schema's `type: integer` without a
/// `format` (and without `minimum: 0`, which is `u64`) becomes in generated code.
///
/// JSON does not bound integers and descriptions rely on it: DigitalOcean documents
/// `9223372036854776000` (above `i64::MAX`) for a field typed only `integer`. Every value an
/// `i64` or a `u64` holds is held exactly; an integral number read as a float (a value past
/// 64 bits, as JSON parsers read one) is held when it fits 128 bits.
///
/// It reads through `deserialize_any`, so it is read the same inside an untagged enum or a
/// flattened struct (where serde buffers values and has no 128-bit integers), and writes the
/// narrowest JSON number that holds it.
///
/// ```
/// use stitchgen_runtime::Integer;
///
/// let wide: Integer = serde_json::from_str("9223372036854776000").unwrap();
/// assert_eq!(wide.get(), 9_223_372_036_854_776_000);
/// assert!(i64::try_from(wide).is_err());
/// assert_eq!(serde_json::to_string(&Integer::from(-3)).unwrap(), "-3");
/// assert!(serde_json::from_str::<Integer>("1.5").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Integer(pub i128);

impl Integer {
    /// The value.
    pub const fn get(self) -> i128 {
        self.0
    }
}

macro_rules! from_narrower {
    ($($t:ty)*) => {$(
        impl From<$t> for Integer {
            fn from(v: $t) -> Self {
                Self(i128::from(v))
            }
        }
    )*};
}
from_narrower!(i8 i16 i32 i64 i128 u8 u16 u32 u64);

macro_rules! try_into_narrower {
    ($($t:ty)*) => {$(
        impl TryFrom<Integer> for $t {
            type Error = std::num::TryFromIntError;

            fn try_from(v: Integer) -> Result<Self, Self::Error> {
                <$t>::try_from(v.0)
            }
        }
    )*};
}
try_into_narrower!(i8 i16 i32 i64 u8 u16 u32 u64 u128 usize isize);

impl From<Integer> for i128 {
    fn from(v: Integer) -> Self {
        v.0
    }
}

impl PartialEq<i128> for Integer {
    fn eq(&self, other: &i128) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for Integer {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(Self)
    }
}

impl serde::Serialize for Integer {
    /// As an `i64` or a `u64` where one holds it (what every JSON reader takes exactly); past
    /// 64 bits as the float a JSON value carries it as, as it was read.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Ok(v) = i64::try_from(self.0) {
            s.serialize_i64(v)
        } else if let Ok(v) = u64::try_from(self.0) {
            s.serialize_u64(v)
        } else {
            // Lossy by design: `serde_json::Value` (which every answer passes through to be
            // validated) has no integers past 64 bits and refuses to hold one.
            #[allow(clippy::cast_precision_loss)]
            s.serialize_f64(self.0 as f64)
        }
    }
}

impl<'de> serde::Deserialize<'de> for Integer {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntegerVisitor)
    }
}

struct IntegerVisitor;

/// Integral floats from `-2^127` up to, not including, `2^127`: exactly the ones `i128` holds.
const FLOAT_BOUND: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

impl serde::de::Visitor<'_> for IntegerVisitor {
    type Value = Integer;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Integer, E> {
        Ok(Integer::from(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Integer, E> {
        Ok(Integer::from(v))
    }

    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Integer, E> {
        Ok(Integer(v))
    }

    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Integer, E> {
        i128::try_from(v).map(Integer).map_err(|_| E::custom(format_args!("integer {v} is wider than 128 bits")))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Integer, E> {
        if v.fract() != 0.0 || !v.is_finite() {
            return Err(E::invalid_type(serde::de::Unexpected::Float(v), &self));
        }
        if !(-FLOAT_BOUND..FLOAT_BOUND).contains(&v) {
            return Err(E::custom(format_args!("integer {v} is wider than 128 bits")));
        }
        // In range and integral: the conversion is exact.
        #[allow(clippy::cast_possible_truncation)]
        Ok(Integer(v as i128))
    }
}

#[cfg(test)]
mod tests {
    use super::Integer;
    use serde_json::{Value, json};

    #[derive(serde::Deserialize, serde::Serialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Union {
        Number(Integer),
        Text(String),
    }

    #[derive(serde::Deserialize, Debug)]
    struct Outer {
        #[serde(flatten)]
        inner: Inner,
    }

    #[derive(serde::Deserialize, Debug)]
    struct Inner {
        count: Option<Integer>,
    }

    #[test]
    fn every_width_json_sends_is_read_and_written_back() {
        for text in ["0", "-9223372036854775808", "9223372036854775807", "18446744073709551615", "9223372036854776000"]
        {
            let v: Integer = serde_json::from_str(text).unwrap();
            assert_eq!(v.get().to_string(), text);
            assert_eq!(serde_json::to_string(&v).unwrap(), text);
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        }
        // Past 64 bits serde_json reads a float: held exactly as the float it read.
        let wide: Integer = serde_json::from_str("36893488147419103232").unwrap();
        assert_eq!(wide.get(), 1 << 65);
        assert_eq!(serde_json::to_value(wide).unwrap(), json!(36_893_488_147_419_103_232.0));
    }

    #[test]
    fn inside_an_untagged_union_and_a_flattened_struct_too() {
        assert_eq!(
            serde_json::from_value::<Union>(json!(9_223_372_036_854_776_000u64)).unwrap(),
            Union::Number(Integer(9_223_372_036_854_776_000))
        );
        assert_eq!(serde_json::from_value::<Union>(json!("x")).unwrap(), Union::Text("x".into()));
        let outer: Outer = serde_json::from_str(r#"{"count": -5}"#).unwrap();
        assert_eq!(outer.inner.count, Some(Integer(-5)));
    }

    #[test]
    fn what_is_not_an_integer_is_refused() {
        for text in ["1.5", "\"3\"", "true", "1e40", "-1e40", "null"] {
            assert!(serde_json::from_str::<Integer>(text).is_err(), "{text}");
        }
        assert_eq!(serde_json::from_str::<Integer>("2.0").unwrap(), Integer(2));
    }

    #[test]
    fn narrows_where_it_fits() {
        assert_eq!(i32::try_from(Integer::from(7u8)), Ok(7));
        assert!(u64::try_from(Integer(-1)).is_err());
        assert_eq!("-12".parse::<Integer>().unwrap(), -12);
        assert_eq!(Integer::from(12).to_string(), "12");
    }
}
