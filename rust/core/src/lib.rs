//! bleuscope's compiled core: text or token ids in, BLEU statistics rows out.

pub mod chrf;
pub mod count;
pub mod pairwise;
pub mod par;
pub mod score;
pub mod table;
pub mod ter;
pub mod text;
pub mod tok;

#[cfg(feature = "python")]
mod python;
