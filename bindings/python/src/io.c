/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What reads or writes a file: read into a model, write a model, convert,
 * count a histogram. The long
 * calls run without the GIL; a failure becomes the exception
 * profdata._errors.library_error() chooses, with the library's message.
 */
#include "pyprofdata.h"

static int open_writer(profdata_writer **out, PyObject *path)
{
	int code = profdata_writer_open_path(out, PyBytes_AsString(path));

	if (code < 0) {
		pd_py_raise(code, *out ? profdata_writer_error(*out) : NULL, path, "output");
		profdata_writer_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* read(input, format, strict, options) -> (Model, warnings); input as profdata/_inputs.py gives it */
PyObject *pd_py_read(PyObject *module, PyObject *args)
{
	pd_py_state *st = PyModule_GetState(module);
	PyObject *spec, *model, *warnings;
	profdata_read_options opts;
	profdata_profile *p = NULL;
	profdata_reader *r;
	pd_py_input in;
	int strict, code;

	profdata_read_options_init(&opts, sizeof opts);
	if (!PyArg_ParseTuple(args, "Ozpz", &spec, &opts.format, &strict, &opts.options) ||
	    pd_py_input_open(&in, &r, spec) < 0)
		return NULL;
	opts.mode = strict ? PROFDATA_MODE_STRICT : PROFDATA_MODE_PERMISSIVE;
	Py_BEGIN_ALLOW_THREADS
	code = profdata_read(&p, r, &opts);
	Py_END_ALLOW_THREADS
	if (code < 0) {
		pd_py_input_raise(&in, code, profdata_reader_error(r));
		pd_py_input_clear(&in);
		profdata_reader_free(r);
		return NULL;
	}
	warnings = pd_py_reader_warnings(r);
	profdata_reader_free(r);
	model = pd_py_model_wrap(st->model_type, p);
	if (!model || !warnings) {
		Py_XDECREF(model);
		Py_XDECREF(warnings);
		return NULL;
	}
	/* The profile may point into memory it was read from: that memory lives as long as the model. */
	Py_XINCREF(in.keep);
	((pd_py_model *)model)->input = in.keep;
	return Py_BuildValue("(NN)", model, warnings);
}

/* model.write(path: bytes, format, options) -> warnings */
PyObject *pd_py_write(PyObject *self, PyObject *args)
{
	const profdata_profile *p = pd_py_model_profile(self);
	profdata_write_options opts;
	profdata_writer *w;
	PyObject *path, *warnings = NULL;
	int code;

	profdata_write_options_init(&opts, sizeof opts);
	if (!p || !PyArg_ParseTuple(args, "Ssz", &path, &opts.format, &opts.options) || open_writer(&w, path) < 0)
		return NULL;
	code = profdata_write(p, w, &opts);
	if (code >= 0)
		code = profdata_writer_close(w);
	if (code < 0)
		pd_py_raise(code, profdata_writer_error(w), path, "output");
	else
		warnings = pd_py_writer_warnings(w);
	profdata_writer_free(w);
	return warnings;
}

/* The reader's and the writer's warnings, in that order, as one list. */
static PyObject *both_warnings(const profdata_reader *r, const profdata_writer *w)
{
	PyObject *a = pd_py_reader_warnings(r), *b = pd_py_writer_warnings(w), *all = NULL;

	if (a && b)
		all = PySequence_Concat(a, b);
	Py_XDECREF(a);
	Py_XDECREF(b);
	return all;
}

/* convert(src: input, dst: bytes, to, options, read_format) -> warnings */
PyObject *pd_py_convert(PyObject *module, PyObject *args)
{
	profdata_read_options ro;
	profdata_write_options wo;
	profdata_reader *r;
	profdata_writer *w;
	PyObject *src, *dst, *warnings = NULL;
	pd_py_input in;
	int code;

	(void)module;
	profdata_read_options_init(&ro, sizeof ro);
	profdata_write_options_init(&wo, sizeof wo);
	if (!PyArg_ParseTuple(args, "OSszz", &src, &dst, &wo.format, &wo.options, &ro.format) ||
	    pd_py_input_open(&in, &r, src) < 0)
		return NULL;
	if (open_writer(&w, dst) < 0) {
		profdata_reader_free(r);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	code = profdata_convert(r, &ro, w, &wo);
	if (code >= 0)
		code = profdata_writer_close(w);
	Py_END_ALLOW_THREADS
	if (code < 0 && profdata_reader_error(r))
		pd_py_input_raise(&in, code, profdata_convert_error(r, w));
	else if (code < 0)
		pd_py_raise(code, profdata_convert_error(r, w), dst, "output");
	else
		warnings = both_warnings(r, w);
	pd_py_input_clear(&in);
	profdata_writer_free(w);
	profdata_reader_free(r);
	return warnings;
}

PyObject *pd_py_histogram_rows(const profdata_histogram *h)
{
	size_t n = profdata_histogram_count(h);
	PyObject *list = PyList_New((Py_ssize_t)n);

	for (size_t i = 0; list && i < n; i++) {
		const profdata_histogram_entry *e = profdata_histogram_entry_at(h, i);
		PyObject *row = Py_BuildValue("(NKK)", pd_py_cstr(e->name), (unsigned long long)e->instances,
		                              (unsigned long long)e->bytes);

		if (!row || PyList_SetItem(list, (Py_ssize_t)i, row) < 0)
			Py_CLEAR(list);
	}
	return list;
}

/* histogram(input, format, dump) -> (format read or None, rows, warnings) */
PyObject *pd_py_histogram(PyObject *module, PyObject *args)
{
	profdata_read_options opts;
	profdata_histogram *h = NULL;
	const profdata_format *f = NULL;
	profdata_reader *r;
	PyObject *spec, *out = NULL;
	pd_py_input in;
	long dump;
	int code;

	(void)module;
	profdata_read_options_init(&opts, sizeof opts);
	if (!PyArg_ParseTuple(args, "Ozl", &spec, &opts.format, &dump) || pd_py_input_open(&in, &r, spec) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	if (!opts.format && profdata_reader_sniff(r, &f) < 0)
		f = NULL;
	code = profdata_histogram_read(&h, r, &opts, dump);
	Py_END_ALLOW_THREADS
	if (code < 0)
		pd_py_input_raise(&in, code, profdata_reader_error(r));
	else
		out = Py_BuildValue("(NNN)", pd_py_cstr(opts.format ? opts.format : f ? profdata_format_name(f) : NULL),
		                    pd_py_histogram_rows(h), pd_py_reader_warnings(r));
	pd_py_input_clear(&in);
	profdata_histogram_free(h);
	profdata_reader_free(r);
	return out;
}
