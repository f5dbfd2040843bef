/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A model written into memory (profdata_writer_open_memory()), for what
 * Python shows rather than saves: a notebook's flame graph. No file is made.
 */
#include "pyprofdata.h"

/* model.write_memory(format, options) -> (bytes, warnings) */
PyObject *pd_py_write_memory(PyObject *self, PyObject *args)
{
	const profdata_profile *p = pd_py_model_profile(self);
	profdata_write_options opts;
	profdata_writer *w = NULL;
	const void *data = NULL;
	size_t len = 0;
	PyObject *out = NULL;
	int code;

	profdata_write_options_init(&opts, sizeof opts);
	if (!p || !PyArg_ParseTuple(args, "sz", &opts.format, &opts.options))
		return NULL;
	if ((code = profdata_writer_open_memory(&w)) < 0)
		return pd_py_raise(code, NULL, NULL, "output");
	Py_BEGIN_ALLOW_THREADS
	code = profdata_write(p, w, &opts);
	if (code >= 0)
		code = profdata_writer_close(w);
	if (code >= 0)
		code = profdata_writer_memory(w, &data, &len);
	Py_END_ALLOW_THREADS
	if (code < 0)
		pd_py_raise(code, profdata_writer_error(w), NULL, "output");
	else
		out = Py_BuildValue("(y#N)", (const char *)data, (Py_ssize_t)len, pd_py_writer_warnings(w));
	profdata_writer_free(w);
	return out;
}
