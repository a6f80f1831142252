// Module tools/gopls pins gopls for the optional `make kernel GOPLS=1`, in a module of its
// own so that gopls's x/tools version never enters the main module's build list.
package gopls
