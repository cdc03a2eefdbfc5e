//! The strict reading of a JSON body: [`Checked`] parses it refusing a key given twice,
//! [`Strict`] deserialises the value into its type with structs and maps from objects only
//! and no control character in a string or key the type reads.

use serde::{
    Deserializer,
    de::{
        self, IntoDeserializer, MapAccess, SeqAccess, Visitor,
        value::{MapAccessDeserializer, MapDeserializer, SeqDeserializer},
    },
    forward_to_deserialize_any,
};
use serde_json::{Map, Value};

use super::{CONTROL_CHARACTERS, MUST_BE_OBJECT, has_control};

/// A JSON value parsed under the duplicate-key rule (the text rule applies as the value is
/// read into its type, see [`Strict`]).
pub(super) struct Checked(pub(super) Value);

impl<'de> de::Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckedVisitor)
    }
}

struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Checked, E> {
        Ok(Checked(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Checked, E> {
        Ok(Checked(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Checked, E> {
        Ok(Checked(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Checked, E> {
        Ok(Checked(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Checked, E> {
        Ok(Checked(Value::String(v.to_string())))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked(Value::Null))
    }
    fn visit_none<E: de::Error>(self) -> Result<Checked, E> {
        Ok(Checked(Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Checked, D::Error> {
        de::Deserialize::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        let mut items = Vec::new();
        while let Some(Checked(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Checked(Value::Array(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate field `{key}`")));
            }
            let Checked(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Checked(Value::Object(object)))
    }
}

/// Deserialises a checked value strictly: structs and maps from objects only, and no
/// control character in a string or key the type reads. Members the type does not know are
/// skipped unread, as serde skips them, so they are not checked either: nothing of them is
/// kept.
pub(super) struct Strict<'a>(pub(super) &'a Value);

impl<'de> IntoDeserializer<'de, serde_json::Error> for Strict<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> Strict<'de> {
    fn map<V: Visitor<'de>>(
        o: &'de Map<String, Value>,
        v: V,
    ) -> Result<V::Value, serde_json::Error> {
        let mut map = MapDeserializer::new(o.iter().map(|(k, v)| (Key(k), Strict(v))));
        let value = v.visit_map(&mut map)?;
        map.end()?;
        Ok(value)
    }
}

impl<'de> Deserializer<'de> for Strict<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => v.visit_unit(),
            Value::Bool(b) => v.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => v.visit_u64(u),
                (None, Some(i), _) => v.visit_i64(i),
                // A whole number written with a fraction (`345.0`) is that integer, as JSON
                // Schema counts it; larger than an i64 it stays a float.
                (None, None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e18 => {
                    v.visit_i64(f as i64)
                }
                _ => v.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) if has_control(s, true) => Err(de::Error::custom(CONTROL_CHARACTERS)),
            Value::String(s) => v.visit_borrowed_str(s),
            Value::Array(a) => {
                let mut seq = SeqDeserializer::new(a.iter().map(Strict));
                let value = v.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Value::Object(o) => Strict::map(o, v),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => v.visit_none(),
            _ => v.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        self.deserialize_map(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Object(o) => Strict::map(o, v),
            _ => Err(de::Error::custom(MUST_BE_OBJECT)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::String(s) => v.visit_enum(s.as_str().into_deserializer()),
            Value::Object(o) if o.len() == 1 => v.visit_enum(MapAccessDeserializer::new(
                MapDeserializer::new(o.iter().map(|(k, v)| (Key(k), Strict(v)))),
            )),
            _ => Err(de::Error::custom("Must be a string")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Self::Error> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct identifier
    }
}

/// An object's key: a struct's field name is matched as it is (an unknown one is skipped
/// with its value), a key kept as text (a map's) must hold no control character.
struct Key<'a>(&'a str);

impl<'de> IntoDeserializer<'de, serde_json::Error> for Key<'de> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        if has_control(self.0, false) {
            return Err(de::Error::custom(CONTROL_CHARACTERS));
        }
        v.visit_borrowed_str(self.0)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_borrowed_str(self.0)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .into_deserializer()
            .deserialize_enum(name, variants, v)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct ignored_any
    }
}
