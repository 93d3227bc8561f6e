//! The GFF records a built module needs: ARE, GIT, IFO, and door templates renamed.
