//! bleuscope's compiled core: text or token ids in, BLEU statistics rows out.

pub mod count;
pub mod par;
pub mod score;
pub mod table;
pub mod text;
pub mod tok;

#[cfg(feature = "python")]
mod python;
