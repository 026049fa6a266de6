import { describe, expect, it } from 'vitest'
import { CUSTOM_ENTREPRISE_XML } from '../test/entreprise-xml.js'
import { MAARCH_INSTALLED_ATTACHMENT_TYPES, mapAttachmentTypes, parseEntrepriseXml } from './attachment-types.js'
import type { OrganisationNote } from './map-organisation.js'

describe('parseEntrepriseXml', () => {
  it('reads the types as 20.10 does: labels of its constants, sign, chrono and show true unless set otherwise', () => {
    expect(parseEntrepriseXml(CUSTOM_ENTREPRISE_XML)).toEqual([
      {
        id: 'response_project',
        label: 'Projet de réponse',
        icon: 'R',
        sign: true,
        chrono: true,
        attachInMail: true,
        show: true,
      },
      {
        id: 'avis_juridique',
        label: 'Avis juridique & conseil',
        icon: 'AJ',
        sign: false,
        chrono: false,
        attachInMail: false,
        show: false,
      },
      {
        id: 'simple_attachment',
        label: 'Pièce jointe',
        icon: '',
        sign: true,
        chrono: true,
        attachInMail: false,
        show: true,
      },
    ])
  })

  it('refuses a file that is not an entreprise.xml rather than importing no type', () => {
    expect(() => parseEntrepriseXml('<ROOT><contact_check/></ROOT>')).toThrow(/no <attachment_types> section/)
    expect(() => parseEntrepriseXml('not xml <')).toThrow()
  })
})

describe('mapAttachmentTypes', () => {
  it("takes 20.10's installed types without a file, adding with a note the types attachments use that the list lacks", () => {
    const notes: OrganisationNote[] = []
    const types = mapAttachmentTypes({ table: null, configured: null, used: ['response_project', 'recommande'] }, notes)
    expect(types.map((t) => t.id)).toEqual([...MAARCH_INSTALLED_ATTACHMENT_TYPES.map((t) => t.id), 'recommande'])
    expect(types.at(-1)).toEqual({
      id: 'recommande',
      label: 'recommande',
      icon: '',
      sign: false,
      chrono: false,
      attachInMail: false,
      show: false,
    })
    expect(notes).toEqual([
      {
        section: 'attachmentTypes',
        id: 'recommande',
        message: "used by attachments but not in the installation's list: added, labelled with its id and not offered",
      },
    ])
  })

  it("prefers the source's table (later releases) to the file, and notes what it could not keep as it was", () => {
    const notes: OrganisationNote[] = []
    const types = mapAttachmentTypes(
      {
        table: [
          {
            type_id: 'response_project',
            label: 'Réponse',
            icon: 'R',
            signable: true,
            chrono: true,
            email_link: true,
            visible: true,
          },
          {
            type_id: 'bad id!',
            label: 'x',
            icon: '',
            signable: false,
            chrono: false,
            email_link: false,
            visible: true,
          },
          {
            type_id: 'long_icon',
            label: 'Long',
            icon: 'ABCDEFGHIJKL',
            signable: false,
            chrono: false,
            email_link: false,
            visible: false,
          },
        ],
        configured: parseEntrepriseXml(CUSTOM_ENTREPRISE_XML),
        used: [],
      },
      notes,
    )
    expect(types).toEqual([
      { id: 'response_project', label: 'Réponse', icon: 'R', sign: true, chrono: true, attachInMail: true, show: true },
      {
        id: 'long_icon',
        label: 'Long',
        icon: 'ABCDEFGHIJ',
        sign: false,
        chrono: false,
        attachInMail: false,
        show: false,
      },
    ])
    expect(notes.map((n) => n.id)).toEqual(['bad id!', 'long_icon'])
  })
})
