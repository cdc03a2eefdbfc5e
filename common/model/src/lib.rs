//! Searchdeck's value types, free of I/O, shared by the stores and the engines above them:
//! attributed events ([`attribution`]),
//! ids and their string form on the wire ([`ids`]), money and currencies ([`money`]), FX
//! rate sets ([`fx`]), countries ([`countries`]), keyword text normalisation ([`text`]) and
//! the field errors of validation ([`FieldError`]).

pub mod attribution;
pub mod countries;
pub mod field_error;
pub mod fx;
pub mod ids;
pub mod money;
pub mod text;

pub use field_error::FieldError;
