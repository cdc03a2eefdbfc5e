//! Request schemas the derive cannot spell: enums whose values live in constants (tag colours
//! and types, preset tables, statuses), for `#[schema(schema_with = …)]`. The document then
//! names exactly the values the handlers take, from the same lists.

use utoipa::openapi::{ObjectBuilder, RefOr, schema::Schema, schema::Type};

/// A string schema holding one of `values`.
fn one_of<'a>(values: impl IntoIterator<Item = &'a str>, description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .description(Some(description))
        .into()
}

/// [`one_of`] where the field may be null (left as it is).
fn one_of_or_null<'a>(
    values: impl IntoIterator<Item = &'a str>,
    description: &str,
) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .enum_values(Some(
            values
                .into_iter()
                .map(serde_json::Value::from)
                .chain([serde_json::Value::Null]),
        ))
        .description(Some(description))
        .into()
}

/// One of the spec's ten tag colours.
pub fn tag_color() -> RefOr<Schema> {
    one_of(
        searchdeck_common::store::tags::COLORS.iter().copied(),
        "One of the ten tag colours",
    )
}

/// [`tag_color`] where it may be left out (null keeps the colour).
pub fn tag_color_or_null() -> RefOr<Schema> {
    one_of_or_null(
        searchdeck_common::store::tags::COLORS.iter().copied(),
        "One of the ten tag colours; null keeps it",
    )
}

/// One of the four table types a tag belongs to.
pub fn tag_type() -> RefOr<Schema> {
    one_of(
        searchdeck_common::store::tags::TYPES.iter().map(|t| t.0),
        "The table type: CAMPAIGNS, GROUPS, KEYWORDS or SEARCHTERMS",
    )
}

/// [`status`] where it may be left out (absent or null: unchanged).
pub fn status_or_null() -> RefOr<Schema> {
    one_of_or_null(
        crate::domain::STATUSES.iter().copied(),
        "ENABLED or PAUSED (ACTIVE means ENABLED); null leaves it",
    )
}

/// A status a quick or bulk edit sets: ENABLED or PAUSED as Apple spells them (ACTIVE, the
/// keyword's shown status, is taken for ENABLED).
pub fn status() -> RefOr<Schema> {
    one_of(
        crate::domain::STATUSES.iter().copied(),
        "ENABLED or PAUSED (ACTIVE means ENABLED)",
    )
}

/// A country or region Apple Ads serves, by its ISO 3166-1 alpha-2 code.
pub fn country() -> RefOr<Schema> {
    one_of(
        searchdeck_common::countries::all()
            .iter()
            .map(|c| c.code.as_str()),
        "A country or region Apple Ads serves (ISO 3166-1 alpha-2)",
    )
}

/// The kind of place of a geo search, as Apple names it (`GeoEntityType`).
pub fn geo_entity() -> RefOr<Schema> {
    one_of(
        ["Country", "AdminArea", "Locality", "PostalCode"],
        "Country, AdminArea, Locality or PostalCode",
    )
}

/// Entity types of the change history's filter (a list; null or absent: every type).
pub fn change_entity_types() -> RefOr<Schema> {
    utoipa::openapi::schema::ArrayBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Array,
            Type::Null,
        ]))
        .items(one_of(
            crate::domain::ENTITY_TYPES.iter().copied(),
            "An entity type of the change history",
        ))
        .description(Some("Only these entity types"))
        .into()
}

/// An email address, or a blank text or null that clears the value.
pub fn email_or_blank() -> RefOr<Schema> {
    use utoipa::openapi::{KnownFormat, SchemaFormat, schema::AnyOfBuilder};
    AnyOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Email))),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some("^[ \\t\\n\\r]*$")),
        )
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .description(Some("An email address; blank or null clears it"))
        .into()
}

/// Any JSON value the server keeps as it is (saved options): no control character in its
/// strings (tab and line breaks aside) nor in its keys. A component, since it nests itself.
pub struct KeptJson;

impl utoipa::PartialSchema for KeptJson {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::{Ref, schema::AnyOfBuilder};
        let nested = || Ref::from_schema_name("KeptJson");
        let mut object = utoipa::openapi::Object::with_type(Type::Object);
        object.property_names = Some(Box::new(Schema::Object(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(crate::openapi::PLAIN_TEXT))
                .build(),
        )));
        object.additional_properties = Some(Box::new(
            utoipa::openapi::schema::AdditionalProperties::RefOr(nested().into()),
        ));
        AnyOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .pattern(Some(crate::openapi::BODY_TEXT)),
            )
            .item(utoipa::openapi::schema::ArrayBuilder::new().items(nested()))
            .item(object)
            .description(Some("A JSON value kept as sent"))
            .into()
    }
}

impl utoipa::ToSchema for KeptJson {}

/// The body of `PUT options/front`: 1 to 50 options by name (letters, digits, '-', '_'; at
/// most 64), each any JSON value of at most 256 KiB.
pub struct OptionsBody;

impl utoipa::PartialSchema for OptionsBody {
    fn schema() -> RefOr<Schema> {
        let mut object = utoipa::openapi::Object::with_type(Type::Object);
        object.min_properties = Some(1);
        object.max_properties = Some(50);
        object.property_names = Some(Box::new(Schema::Object(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some("^[A-Za-z0-9_-]{1,64}$"))
                .build(),
        )));
        object.additional_properties = Some(Box::new(
            utoipa::openapi::schema::AdditionalProperties::RefOr(
                utoipa::openapi::Ref::from_schema_name("KeptJson").into(),
            ),
        ));
        object.description = Some("Options to save, by name".into());
        Schema::Object(object).into()
    }
}

impl utoipa::ToSchema for OptionsBody {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((
            "KeptJson".into(),
            <KeptJson as utoipa::PartialSchema>::schema(),
        ));
    }
}
