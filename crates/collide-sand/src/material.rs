//! The materials a world's cells hold: a table the caller defines, each
//! entry with a density, a kind of motion and, optionally, how it burns.

use crate::error::SandError;
use std::sync::atomic::{AtomicU32, Ordering};

/// A material's index in its [`Materials`] table, and which table (an id
/// from another table is refused). Id 0 is always empty space
/// ([`MaterialId::EMPTY`]), the same in every table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct MaterialId {
    index: u8,
    /// The table's number; 0 for empty space, which every table holds.
    table: u32,
}

impl MaterialId {
    /// Empty space (air): density 1, never moves by itself.
    pub const EMPTY: MaterialId = MaterialId { index: 0, table: 0 };

    /// The id as a byte.
    pub fn index(self) -> u8 {
        self.index
    }

    /// The id of byte `index` in table `table` (empty space for 0).
    pub(crate) fn in_table(index: u8, table: u32) -> Self {
        if index == 0 {
            Self::EMPTY
        } else {
            MaterialId { index, table }
        }
    }
}

/// The next table's number (0 is never given).
static NEXT_TABLE: AtomicU32 = AtomicU32::new(1);

/// How a material moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Empty space: other materials move through it.
    Empty,
    /// Never moves, and nothing moves through it (stone, wood).
    Static,
    /// Falls, then slides diagonally down (sand, gravel).
    Powder,
    /// Falls, slides diagonally down, then flows sideways (water, oil).
    Liquid,
    /// A liquid upside down: rises, then diagonally up, then sideways
    /// (smoke, steam).
    Gas,
}

/// How a burning material behaves each tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Burning {
    /// Chance, 0 to 1, that it sets each flammable side neighbour (left,
    /// right, above, below) on fire in a tick; the neighbour becomes this
    /// material.
    pub spread: f32,
    /// Chance, 0 to 1, that it burns out in a tick.
    pub burn_out: f32,
    /// What it leaves when it burns out (smoke, ash, empty space).
    pub leaves: MaterialId,
}

/// One material.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    name: String,
    density: f32,
    motion: Motion,
    flammable: bool,
    burning: Option<Burning>,
    dispersion: u8,
}

/// How far a liquid flows sideways in a tick by default, cells: a basin
/// 300 cells wide levels within a cell in under 600 ticks.
pub const LIQUID_DISPERSION: u32 = 8;

/// The most cells a material may flow sideways in a tick.
pub const MAX_DISPERSION: u32 = 64;

impl Material {
    /// A material that does not burn. `density` is relative to empty space
    /// (1): heavier materials sink through lighter ones, gases lighter than
    /// 1 rise through empty space.
    ///
    /// ```
    /// use collide_sand::{Material, Motion};
    /// let sand = Material::new("sand", 16.0, Motion::Powder)?;
    /// assert_eq!((sand.name(), sand.density()), ("sand", 16.0));
    /// assert!(Material::new("ghost", f32::NAN, Motion::Gas).is_err());
    /// # Ok::<(), collide_sand::SandError>(())
    /// ```
    pub fn new(name: &str, density: f32, motion: Motion) -> Result<Self, SandError> {
        if !(density.is_finite() && density > 0.0) {
            return Err(SandError::Density {
                name: name.to_string(),
                density,
            });
        }
        Ok(Self {
            name: name.to_string(),
            density,
            motion,
            flammable: false,
            burning: None,
            dispersion: if motion == Motion::Liquid {
                LIQUID_DISPERSION as u8
            } else {
                1
            },
        })
    }

    /// The same material flowing up to `cells` sideways in a tick, where
    /// the way is clear (liquids and gases; default [`LIQUID_DISPERSION`]
    /// for liquids, 1 for gases), 1 to [`MAX_DISPERSION`]. A world's chunks
    /// must be at least twice as wide as the farthest flow.
    ///
    /// ```
    /// use collide_sand::{Material, Motion};
    /// let honey = Material::new("honey", 14.0, Motion::Liquid)?.with_dispersion(1)?;
    /// assert_eq!(honey.dispersion(), 1);
    /// assert!(Material::new("water", 10.0, Motion::Liquid)?.with_dispersion(0).is_err());
    /// # Ok::<(), collide_sand::SandError>(())
    /// ```
    pub fn with_dispersion(mut self, cells: u32) -> Result<Self, SandError> {
        if !(1..=MAX_DISPERSION).contains(&cells) {
            return Err(SandError::Dispersion {
                name: self.name.clone(),
                cells,
            });
        }
        self.dispersion = cells as u8;
        Ok(self)
    }

    /// How far it flows sideways in a tick, cells.
    pub fn dispersion(&self) -> u32 {
        u32::from(self.dispersion)
    }

    /// The same material, catching fire from burning neighbours.
    pub fn flammable(mut self) -> Self {
        self.flammable = true;
        self
    }

    /// The same material, burning as `burning` says (fire).
    pub fn burning(mut self, burning: Burning) -> Result<Self, SandError> {
        for chance in [burning.spread, burning.burn_out] {
            if !(0.0..=1.0).contains(&chance) {
                return Err(SandError::Chance {
                    name: self.name.clone(),
                    chance,
                });
            }
        }
        self.burning = Some(burning);
        Ok(self)
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Density relative to empty space.
    pub fn density(&self) -> f32 {
        self.density
    }

    /// How it moves.
    pub fn motion(&self) -> Motion {
        self.motion
    }

    /// Whether burning neighbours set it on fire.
    pub fn is_flammable(&self) -> bool {
        self.flammable
    }

    /// How it burns, if it does.
    pub fn burns(&self) -> Option<Burning> {
        self.burning
    }
}

/// The table of a world's materials, id 0 being empty space.
///
/// ```
/// use collide_sand::{MaterialId, Materials, Material, Motion};
/// let mut table = Materials::new();
/// let sand = table.add(Material::new("sand", 16.0, Motion::Powder)?)?;
/// assert_eq!(table.get(sand)?.name(), "sand");
/// assert_eq!(table.get(MaterialId::EMPTY)?.motion(), Motion::Empty);
/// # Ok::<(), collide_sand::SandError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Materials {
    /// This table's number, which its ids carry.
    table: u32,
    list: Vec<Material>,
    /// Per id, the facts a tick reads for every cell, packed apart from
    /// the names.
    facts: Vec<Facts>,
}

/// What a cell's update reads of its material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Facts {
    pub(crate) density: f32,
    pub(crate) motion: Motion,
    pub(crate) flammable: bool,
    pub(crate) burning: Option<Burning>,
    /// Cells it flows sideways in a tick (liquids and gases).
    pub(crate) dispersion: i32,
}

impl Default for Materials {
    fn default() -> Self {
        Self::new()
    }
}

impl Materials {
    /// A table holding only empty space.
    pub fn new() -> Self {
        let empty = Material::new("empty", 1.0, Motion::Empty).expect("1 is a valid density");
        let mut table = Self {
            table: NEXT_TABLE.fetch_add(1, Ordering::Relaxed),
            list: Vec::new(),
            facts: Vec::new(),
        };
        table.push(empty);
        table
    }

    /// Adds `material`; returns its id. Fails past 256 materials, or when
    /// a burning material leaves an id the table does not hold yet.
    pub fn add(&mut self, material: Material) -> Result<MaterialId, SandError> {
        if self.list.len() >= 256 {
            return Err(SandError::TooManyMaterials);
        }
        if let Some(b) = material.burning {
            self.get(b.leaves)?;
        }
        Ok(self.push(material))
    }

    fn push(&mut self, material: Material) -> MaterialId {
        let id = MaterialId::in_table(self.list.len() as u8, self.table);
        self.facts.push(Facts {
            density: material.density,
            motion: material.motion,
            flammable: material.flammable,
            burning: material.burning,
            dispersion: i32::from(material.dispersion),
        });
        self.list.push(material);
        id
    }

    /// The material `id` names. An error for an id of another table.
    pub fn get(&self, id: MaterialId) -> Result<&Material, SandError> {
        if id.table != 0 && id.table != self.table {
            return Err(SandError::ForeignMaterial(id.index));
        }
        self.list
            .get(usize::from(id.index))
            .ok_or(SandError::UnknownMaterial(id.index))
    }

    /// The id of byte `index` in this table.
    pub(crate) fn id(&self, index: u8) -> MaterialId {
        MaterialId::in_table(index, self.table)
    }

    /// The number of materials, empty space included.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Never: empty space is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Every id with its material, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (MaterialId, &Material)> {
        self.list
            .iter()
            .enumerate()
            .map(|(i, m)| (MaterialId::in_table(i as u8, self.table), m))
    }

    /// The farthest any of its materials flows sideways in a tick, cells.
    pub fn farthest_flow(&self) -> u32 {
        self.list
            .iter()
            .filter(|m| matches!(m.motion, Motion::Liquid | Motion::Gas))
            .map(Material::dispersion)
            .max()
            .unwrap_or(1)
    }

    #[inline]
    pub(crate) fn facts(&self, id: u8) -> &Facts {
        &self.facts[usize::from(id)]
    }
}
