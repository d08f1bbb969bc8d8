//! What the generated types offer beyond their wire form, written once: setters of a
//! struct's optional members (`Tool::new(..).with_description("Tells the weather")`, one
//! row a member: [`setters!`](macro@crate::setters)), and the order of an enum whose values
//! are ordered in prose ([`ordered!`](macro@crate::ordered)).

/// The setters of a struct's optional members, one row each: `$how` says how the member
/// holds its value (`plain`: `Option<T>`; `boxed`: `Option<Box<T>>`; `nullable`:
/// `Option<Option<T>>`, set with an `Option<T>` whose `None` is `null`; `nullable_boxed`:
/// `Option<Option<Box<T>>>`), then the setter, the field with the type it takes, and the
/// member's wire name for the docs. Attributes before a row (a deprecation) go on its
/// setter.
///
/// ```ignore
/// crate::rt::setters! {
///     Tool {
///         plain with_description(description: ::std::string::String) "description",
///     }
/// }
/// ```
#[macro_export]
macro_rules! setters {
    ($name:ident { $( $(#[$attr:meta])* $how:ident $setter:ident($field:ident : $ty:ty) $wire:literal ),* $(,)? }) => {
        impl $name {
            $( $crate::__setter!($(#[$attr])* $how $setter($field: $ty) $wire); )*
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __setter {
    ($(#[$attr:meta])* plain $setter:ident($field:ident : $ty:ty) $wire:literal) => {
        #[doc = concat!("This value with `", $wire, "` set to `value`.")]
        $(#[$attr])*
        #[allow(deprecated)]
        #[must_use]
        pub fn $setter(mut self, value: impl ::std::convert::Into<$ty>) -> Self {
            self.$field = ::std::option::Option::Some(value.into());
            self
        }
    };
    ($(#[$attr:meta])* boxed $setter:ident($field:ident : $ty:ty) $wire:literal) => {
        #[doc = concat!("This value with `", $wire, "` set to `value`.")]
        $(#[$attr])*
        #[allow(deprecated)]
        #[must_use]
        pub fn $setter(mut self, value: impl ::std::convert::Into<$ty>) -> Self {
            self.$field = ::std::option::Option::Some(::std::boxed::Box::new(value.into()));
            self
        }
    };
    ($(#[$attr:meta])* nullable $setter:ident($field:ident : $ty:ty) $wire:literal) => {
        #[doc = concat!("This value with `", $wire, "` set to `value` (`None`: `null`).")]
        $(#[$attr])*
        #[allow(deprecated)]
        #[must_use]
        pub fn $setter(mut self, value: ::std::option::Option<$ty>) -> Self {
            self.$field = ::std::option::Option::Some(value);
            self
        }
    };
    ($(#[$attr:meta])* nullable_boxed $setter:ident($field:ident : $ty:ty) $wire:literal) => {
        #[doc = concat!("This value with `", $wire, "` set to `value` (`None`: `null`).")]
        $(#[$attr])*
        #[allow(deprecated)]
        #[must_use]
        pub fn $setter(mut self, value: ::std::option::Option<$ty>) -> Self {
            self.$field = ::std::option::Option::Some(value.map(::std::boxed::Box::new));
            self
        }
    };
}

/// `PartialOrd` for a generated string enum whose values have an order the schema gives in
/// prose (the generator's `ORDERED_ENUMS`): the variants listed, least first; any other
/// variant (the catch-all of values the version does not define) is ordered against none
/// of them, and equal to itself.
///
/// ```ignore
/// crate::rt::ordered! { LoggingLevel { Debug, Info, Notice, Warning } }
/// ```
#[macro_export]
macro_rules! ordered {
    ($name:ident { $( $variant:ident ),* $(,)? }) => {
        #[allow(deprecated)]
        impl ::std::cmp::PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> ::std::option::Option<::std::cmp::Ordering> {
                let rank = |value: &Self| {
                    [$( Self::$variant ),*].iter().position(|v| v == value)
                };
                match (rank(self), rank(other)) {
                    (::std::option::Option::Some(a), ::std::option::Option::Some(b)) => {
                        ::std::option::Option::Some(a.cmp(&b))
                    }
                    _ if self == other => ::std::option::Option::Some(::std::cmp::Ordering::Equal),
                    _ => ::std::option::Option::None,
                }
            }
        }
    };
}
